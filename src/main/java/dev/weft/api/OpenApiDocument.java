package dev.weft.api;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Builds {@code /openapi.json} from {@code openapi/base.json} and the fragment of every mounted module. */
final class OpenApiDocument {
    private OpenApiDocument() {}

    static JsonObject merge(List<ApiModule> modules) throws IOException {
        JsonObject doc = read("openapi/base.json");
        JsonObject paths = doc.getJsonObject("paths", new JsonObject());
        JsonObject components = doc.getJsonObject("components", new JsonObject());
        for (ApiModule m : modules) {
            String res = m.openApiFragment();
            if (res == null) continue;
            JsonObject frag = read(res);
            frag.getJsonObject("paths", new JsonObject()).forEach(e -> paths.put(e.getKey(), e.getValue()));
            JsonObject fc = frag.getJsonObject("components", new JsonObject());
            for (String section : fc.fieldNames()) {
                JsonObject target = components.getJsonObject(section, new JsonObject());
                fc.getJsonObject(section).forEach(e -> target.put(e.getKey(), e.getValue()));
                components.put(section, target);
            }
        }
        for (ApiModule m : modules) if (m instanceof ChainsApi chains) prefixed(paths, chains.anyChainModules());
        return doc.put("paths", paths).put("components", components);
    }

    /** Each chain's copy of the indexer paths, under /chains/{chain_id}, with that parameter and its own operation ids. */
    private static void prefixed(JsonObject paths, List<ApiModule> chainModules) throws IOException {
        JsonObject param = new JsonObject()
                .put("name", "chain_id")
                .put("in", "path")
                .put("required", true)
                .put("description", "an indexed chain (GET /chains lists them)")
                .put("schema", new JsonObject().put("type", "string").put("maxLength", 64));
        for (ApiModule m : chainModules) {
            String res = m.openApiFragment();
            if (res == null) continue;
            JsonObject frag = read(res).getJsonObject("paths", new JsonObject());
            for (String path : frag.fieldNames()) {
                JsonObject item = frag.getJsonObject(path).copy();
                for (String method : item.fieldNames()) {
                    if (!(item.getValue(method) instanceof JsonObject op)) continue;
                    if (op.containsKey("operationId")) op.put("operationId", "chain_" + op.getString("operationId"));
                    JsonArray params =
                            op.getJsonArray("parameters", new JsonArray()).copy();
                    params.add(0, param.copy());
                    op.put("parameters", params);
                    op.put("summary", "Per chain: " + op.getString("summary", path));
                }
                paths.put("/chains/{chain_id}" + path, item);
            }
        }
    }

    static JsonObject read(String resource) throws IOException {
        try (InputStream in = OpenApiDocument.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) throw new IOException("missing resource " + resource);
            return new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }
}
