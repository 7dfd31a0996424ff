package dev.weft.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import com.hazelcast.config.FileSystemXmlConfig;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.KubernetesConfig;
import dev.weft.config.ConfigSource;
import dev.weft.config.WeftConfig;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Static checks of the deployment files, since no Kubernetes or container engine runs on the build machines: the
 * Kubernetes manifests ({@code cluster/k8s}) and the Compose file parse, selectors match the pods' labels, probes and
 * scrapes point at endpoints the API serves, every {@code WEFT_*} variable is a configuration key Weft reads, and the
 * Hazelcast configurations they name exist and discover members the way the services allow.
 */
class DeployManifestsTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    static Map<String, List<JsonNode>> byKind = new HashMap<>();
    static Set<String> configEnvNames;
    static Set<String> servedPaths;

    @BeforeAll
    static void load() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("cluster/k8s"))) {
            for (Path f :
                    files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
                for (JsonNode doc : readAll(f))
                    byKind.computeIfAbsent(doc.path("kind").asText(), k -> new ArrayList<>())
                            .add(doc);
            }
        }
        configEnvNames = configEnvNames();
        servedPaths = new TreeSet<>();
        try (Stream<Path> fragments = Files.list(Path.of("src/main/resources/openapi"))) {
            for (Path f : fragments.toList()) {
                new JsonObject(Files.readString(f))
                        .getJsonObject("paths", new JsonObject())
                        .fieldNames()
                        .forEach(servedPaths::add);
            }
        }
    }

    /** The environment variable of every key WeftConfig reads, recorded while it reads the bundled configuration. */
    private static Set<String> configEnvNames() throws IOException {
        Set<String> asked = new TreeSet<>();
        Map<String, String> recordingEnv = new HashMap<>() {
            @Override
            public String get(Object key) {
                asked.add(String.valueOf(key));
                return null;
            }
        };
        WeftConfig.from(
                new ConfigSource(new JsonObject(Files.readString(Path.of("conf/weft.json"))), recordingEnv, Map.of()));
        assertTrue(asked.contains("WEFT_DATABASE_URL") && asked.size() > 50, "recorded " + asked);
        return asked;
    }

    private static List<JsonNode> readAll(Path f) throws IOException {
        List<JsonNode> docs = new ArrayList<>();
        try (YAMLParser p = new YAMLFactory().createParser(f.toFile())) {
            Iterator<JsonNode> it = YAML.readValues(p, JsonNode.class);
            while (it.hasNext()) {
                JsonNode d = it.next();
                if (d != null && !d.isNull() && !d.isMissingNode()) docs.add(d);
            }
        }
        return docs;
    }

    private static JsonNode one(String kind, String name) {
        return byKind.getOrDefault(kind, List.of()).stream()
                .filter(d -> d.path("metadata").path("name").asText().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind + " " + name));
    }

    private static boolean selects(JsonNode selector, JsonNode labels) {
        for (Iterator<Map.Entry<String, JsonNode>> it = selector.fields(); it.hasNext(); ) {
            var e = it.next();
            if (!e.getValue().asText().equals(labels.path(e.getKey()).asText())) return false;
        }
        return selector.size() > 0;
    }

    @Test
    @DisplayName(
            "Deployments: selectors match their pod labels; stateless and single-writer roles; probes on served endpoints")
    void deployments() {
        List<JsonNode> deployments = byKind.get("Deployment");
        assertEquals(2, deployments.size());
        JsonNode stateless = one("Deployment", "weft-stateless");
        JsonNode writers = one("Deployment", "weft-writers");
        assertEquals(2, writers.path("spec").path("replicas").asInt(), "a standby for every single-writer role");
        assertEquals("api,route,track", env(stateless).get("WEFT_NODE_ROLES"));
        assertEquals("api,ingest,evm,richlist", env(writers).get("WEFT_NODE_ROLES"));
        for (JsonNode d : deployments) {
            String name = d.path("metadata").path("name").asText();
            JsonNode pod = d.path("spec").path("template");
            assertTrue(
                    selects(
                            d.path("spec").path("selector").path("matchLabels"),
                            pod.path("metadata").path("labels")),
                    name + " selector");
            JsonNode c = pod.path("spec").path("containers").get(0);
            assertEquals(
                    "/health",
                    c.path("livenessProbe").path("httpGet").path("path").asText(),
                    name);
            assertEquals(
                    "/ready",
                    c.path("readinessProbe").path("httpGet").path("path").asText(),
                    name);
            assertTrue(servedPaths.containsAll(List.of("/health", "/ready", "/metrics")), "served: " + servedPaths);
            assertEquals(
                    "/metrics",
                    pod.path("metadata")
                            .path("annotations")
                            .path("prometheus.io/path")
                            .asText());
            Set<String> ports = new TreeSet<>();
            c.path("ports")
                    .forEach(p -> ports.add(p.path("name").asText() + ":"
                            + p.path("containerPort").asInt()));
            assertEquals(Set.of("http:8080", "hazelcast:5701"), ports, name);
            assertEquals(
                    "http", c.path("livenessProbe").path("httpGet").path("port").asText());
            assertTrue(
                    pod.path("spec")
                            .path("securityContext")
                            .path("runAsNonRoot")
                            .asBoolean(),
                    name + " runs as non-root");
            Map<String, String> env = env(d);
            assertEquals("true", env.get("WEFT_CLUSTER_ENABLED"));
            assertEquals("cluster/cluster-k8s.xml", env.get("WEFT_CLUSTER_CONFIG"));
            JsonNode dbUrl = envEntry(d, "WEFT_DATABASE_URL").path("valueFrom").path("secretKeyRef");
            assertEquals("weft-db", dbUrl.path("name").asText(), "the database URL comes from the Secret");
            assertEquals(
                    "status.podIP",
                    envEntry(d, "WEFT_CLUSTER_HOST")
                            .path("valueFrom")
                            .path("fieldRef")
                            .path("fieldPath")
                            .asText());
            assertEquals(
                    "weft-chain",
                    c.path("envFrom").get(0).path("configMapRef").path("name").asText());
        }
    }

    @Test
    @DisplayName("Services: the public one selects only stateless pods, the headless one every member for Hazelcast")
    void services() {
        JsonNode api = one("Service", "weft-api");
        JsonNode hz = one("Service", "weft-hazelcast");
        JsonNode statelessLabels = one("Deployment", "weft-stateless")
                .path("spec")
                .path("template")
                .path("metadata")
                .path("labels");
        JsonNode writerLabels = one("Deployment", "weft-writers")
                .path("spec")
                .path("template")
                .path("metadata")
                .path("labels");
        assertTrue(selects(api.path("spec").path("selector"), statelessLabels));
        assertFalse(
                selects(api.path("spec").path("selector"), writerLabels), "writers are not behind the public service");
        assertEquals("None", hz.path("spec").path("clusterIP").asText());
        assertTrue(selects(hz.path("spec").path("selector"), statelessLabels)
                && selects(hz.path("spec").path("selector"), writerLabels));
        assertEquals(5701, hz.path("spec").path("ports").get(0).path("port").asInt());
        JsonNode hpa = one("HorizontalPodAutoscaler", "weft-stateless");
        assertEquals(
                "weft-stateless",
                hpa.path("spec").path("scaleTargetRef").path("name").asText());
        assertEquals(
                "cpu",
                hpa.path("spec")
                        .path("metrics")
                        .get(0)
                        .path("resource")
                        .path("name")
                        .asText());
        JsonNode pdb = one("PodDisruptionBudget", "weft-writers");
        assertTrue(selects(pdb.path("spec").path("selector").path("matchLabels"), writerLabels));
    }

    @Test
    @DisplayName("every WEFT_* variable of the manifests, the ConfigMap and the Compose file is a key Weft reads")
    void environmentNames() throws IOException {
        Set<String> used = new TreeSet<>();
        for (JsonNode d : byKind.get("Deployment")) used.addAll(env(d).keySet());
        one("ConfigMap", "weft-chain").path("data").fieldNames().forEachRemaining(used::add);
        composeFile()
                .path("services")
                .forEach(s -> s.path("environment").fieldNames().forEachRemaining(used::add));
        used.removeIf(n -> !n.startsWith("WEFT_"));
        assertTrue(used.size() >= 10, "used: " + used);
        Set<String> unknown = new TreeSet<>(used);
        unknown.removeAll(configEnvNames);
        assertEquals(Set.of(), unknown, "not configuration keys");
    }

    @Test
    @DisplayName(
            "Compose: PostgreSQL and three Weft nodes with different roles on fixed addresses, Prometheus and Grafana")
    void compose() throws IOException {
        JsonNode services = composeFile().path("services");
        assertTrue(services.path("postgres").path("image").asText().startsWith("postgres:"));
        Set<String> roles = new TreeSet<>();
        List<String> members = new ArrayList<>();
        for (String n : List.of("weft-api", "weft-writer", "weft-router")) {
            JsonNode s = services.path(n);
            roles.add(s.path("environment").path("WEFT_NODE_ROLES").asText());
            String host = s.path("environment").path("WEFT_CLUSTER_HOST").asText();
            assertEquals(
                    host, s.path("networks").path("weft").path("ipv4_address").asText(), n);
            members.add(host + ":5701");
            assertEquals(
                    "cluster/hazelcast-compose.xml",
                    s.path("environment").path("WEFT_CLUSTER_CONFIG").asText());
        }
        assertEquals(3, roles.size(), "three different role sets: " + roles);
        var hz =
                new FileSystemXmlConfig(Path.of("cluster/hazelcast-compose.xml").toFile());
        assertEquals(members, hz.getNetworkConfig().getJoin().getTcpIpConfig().getMembers());
        JsonNode prometheus = services.path("prometheus");
        assertTrue(prometheus.path("volumes").toString().contains("alerts.yml"));
        JsonNode scrape =
                YAML.readTree(Path.of("cluster/prometheus/prometheus.yml").toFile());
        Set<String> targets = new TreeSet<>();
        scrape.path("scrape_configs")
                .get(0)
                .path("static_configs")
                .get(0)
                .path("targets")
                .forEach(t -> targets.add(t.asText()));
        assertEquals(Set.of("weft-api:8080", "weft-writer:8080", "weft-router:8080"), targets);
        assertTrue(services.path("grafana").path("volumes").toString().contains("grafana/weft.json"));
    }

    @Test
    @DisplayName("cluster-k8s.xml: Kubernetes DNS discovery over the headless service, no member list")
    void hazelcastKubernetes() throws IOException {
        JoinConfig join = new FileSystemXmlConfig(
                        Path.of("cluster/cluster-k8s.xml").toFile())
                .getNetworkConfig()
                .getJoin();
        assertFalse(join.getTcpIpConfig().isEnabled());
        assertFalse(join.getMulticastConfig().isEnabled());
        KubernetesConfig k8s = join.getKubernetesConfig();
        assertTrue(k8s.isEnabled());
        String namespace = one("Service", "weft-hazelcast")
                .path("metadata")
                .path("namespace")
                .asText();
        assertEquals("weft-hazelcast." + namespace + ".svc.cluster.local", k8s.getProperty("service-dns"));
        assertEquals("5701", k8s.getProperty("service-port"));
        assertNotNull(one("Namespace", namespace));
        // the image carries cluster/ (pom.xml, jib extraDirectories), so the file the pods name exists in it
        assertTrue(Files.readString(Path.of("pom.xml")).contains("<into>/app/cluster</into>"));
    }

    /** The Compose file with its anchors and merge keys resolved (SnakeYAML does; Jackson's YAML reader does not). */
    private static JsonNode composeFile() throws IOException {
        Object tree = new org.yaml.snakeyaml.Yaml().load(Files.readString(Path.of("cluster/compose.yaml")));
        return new ObjectMapper().valueToTree(tree);
    }

    private static Map<String, String> env(JsonNode deployment) {
        Map<String, String> out = new HashMap<>();
        deployment
                .path("spec")
                .path("template")
                .path("spec")
                .path("containers")
                .get(0)
                .path("env")
                .forEach(e -> out.put(e.path("name").asText(), e.path("value").asText(null)));
        return out;
    }

    private static JsonNode envEntry(JsonNode deployment, String name) {
        for (JsonNode e : deployment
                .path("spec")
                .path("template")
                .path("spec")
                .path("containers")
                .get(0)
                .path("env")) {
            if (e.path("name").asText().equals(name)) return e;
        }
        throw new AssertionError("no " + name);
    }
}
