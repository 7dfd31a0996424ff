package dev.weft.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.chain.Bech32;
import dev.weft.chain.Hashes;
import dev.weft.chain.Hex;
import dev.weft.chain.client.CosmosRestClient;
import dev.weft.chain.client.NodeException;
import dev.weft.chain.model.NodeJson;
import dev.weft.model.ingest.IndexedBlock;
import io.vertx.core.Future;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resolves a block's proposer (the consensus address of the header) to its moniker and operator address once per
 * proposer, at ingest time, through whichever validator module the chain serves: OPinit's opchild (rollups: first
 * {@code /opinit/opchild/v1/validator/{valoper}} with the valoper form of the consensus address, as rollytics asks,
 * then the validator list), x/staking (plain Cosmos SDK chains) or Initia's mstaking (the Initia L1), whose lists are
 * matched by consensus key. The first module that answers is remembered for the chain, so later proposers ask it
 * alone. A route the node does not serve (404, or the 501 a Cosmos SDK 0.50 node answers for an unregistered route) is
 * never an error: without any validator module, or for a proposer no module lists, the block shows an empty moniker and
 * the valoper of the consensus address, as rollytics does (CometBFT's own {@code /validators} knows no more than that
 * address). Other node failures fail the future (the height is retried); a failed lookup is not cached.
 */
public final class ProposerResolver {
    private static final Logger LOG = LoggerFactory.getLogger(ProposerResolver.class);

    /** A validator module: where its validator list is and where a validator's moniker is in it. */
    enum Module {
        OPCHILD("/opinit/opchild/v1/validators?pagination.limit=1000", "moniker"),
        STAKING("/cosmos/staking/v1beta1/validators?pagination.limit=1000", "description"),
        MSTAKING("/initia/mstaking/v1/validators?pagination.limit=1000", "description"),
        /** The node serves none of them. */
        NONE(null, null);

        final String listPath;
        final String monikerIn;

        Module(String listPath, String monikerIn) {
            this.listPath = listPath;
            this.monikerIn = monikerIn;
        }
    }

    private static final List<Module> ORDER = List.of(Module.OPCHILD, Module.STAKING, Module.MSTAKING);

    private final CosmosRestClient rest;
    private final String valoperPrefix;
    private final Map<String, Future<IndexedBlock.Proposer>> cache = new ConcurrentHashMap<>();
    /** The module this chain serves, once known. */
    private volatile Module module;

    public ProposerResolver(CosmosRestClient rest, String bech32Prefix) {
        this.rest = rest;
        this.valoperPrefix = bech32Prefix + "valoper";
    }

    public Future<IndexedBlock.Proposer> resolve(byte[] consensusAddress) {
        if (consensusAddress == null || consensusAddress.length == 0)
            return Future.succeededFuture(new IndexedBlock.Proposer("", "", ""));
        String key = Hex.upper(consensusAddress);
        Future<IndexedBlock.Proposer> f = cache.computeIfAbsent(key, k -> lookup(consensusAddress));
        return f.onFailure(e -> cache.remove(key, f));
    }

    private Future<IndexedBlock.Proposer> lookup(byte[] consensusAddress) {
        String valoper = Bech32.encode(valoperPrefix, consensusAddress);
        Module known = module;
        if (known == Module.NONE) return Future.succeededFuture(bare(valoper));
        if (known != null) return ask(known, consensusAddress, valoper).map(p -> p == null ? bare(valoper) : p);
        return discover(0, consensusAddress, valoper);
    }

    /** Asks the modules in order from {@code i}; the first that answers is remembered. */
    private Future<IndexedBlock.Proposer> discover(int i, byte[] consensusAddress, String valoper) {
        if (i == ORDER.size()) {
            if (module == null)
                LOG.info(
                        "the node serves no validator module (opchild, staking, mstaking): blocks show the proposer's valoper without a moniker");
            module = Module.NONE;
            return Future.succeededFuture(bare(valoper));
        }
        Module m = ORDER.get(i);
        return ask(m, consensusAddress, valoper).transform(ar -> {
            if (ar.failed()) {
                return ar.cause() instanceof NodeException ne && ne.notServed()
                        ? discover(i + 1, consensusAddress, valoper)
                        : Future.failedFuture(ar.cause());
            }
            if (module == null)
                LOG.info(
                        "proposers are resolved through the {} module", m.name().toLowerCase(java.util.Locale.ROOT));
            module = m;
            return Future.succeededFuture(ar.result() == null ? bare(valoper) : ar.result());
        });
    }

    /**
     * The proposer as module {@code m} knows it; null when it does not list it. Fails with a {@link NodeException} that is
     * {@link NodeException#notServed()} when the node does not serve the module.
     */
    private Future<IndexedBlock.Proposer> ask(Module m, byte[] consensusAddress, String valoper) {
        if (m != Module.OPCHILD) return fromList(m, consensusAddress, valoper);
        // opchild answers the valoper of a consensus address directly; a 404 (unknown, or no opchild) falls to the list
        return rest.get(
                        "/opinit/opchild/v1/validator/" + URLEncoder.encode(valoper, StandardCharsets.UTF_8),
                        root -> root.path("validator"))
                .transform(ar -> {
                    if (ar.succeeded() && ar.result().isObject())
                        return Future.succeededFuture(of(m, ar.result(), valoper));
                    if (ar.succeeded() || ar.cause() instanceof NodeException ne && ne.notServed())
                        return fromList(m, consensusAddress, valoper);
                    return Future.failedFuture(ar.cause());
                });
    }

    /** The validator of {@code m}'s list whose consensus key has this address, or null. */
    private Future<IndexedBlock.Proposer> fromList(Module m, byte[] consensusAddress, String valoper) {
        return rest.get(m.listPath, root -> {
            for (JsonNode v : NodeJson.array(root, "validators")) {
                if (Arrays.equals(consensusAddressOf(v.path("consensus_pubkey")), consensusAddress))
                    return of(m, v, valoper);
            }
            return null;
        });
    }

    private static IndexedBlock.Proposer bare(String valoper) {
        return new IndexedBlock.Proposer("", "", valoper);
    }

    private static IndexedBlock.Proposer of(Module m, JsonNode v, String fallbackOperator) {
        JsonNode names = m.monikerIn.equals("description") ? v.path("description") : v;
        return new IndexedBlock.Proposer(
                NodeJson.text(names, "moniker", ""), "", NodeJson.text(v, "operator_address", fallbackOperator));
    }

    /** The consensus address of an Any-wrapped consensus public key (ed25519: first 20 bytes of its SHA-256). */
    static byte[] consensusAddressOf(JsonNode pubKey) {
        String type = NodeJson.text(pubKey, "@type", "");
        String key = NodeJson.text(pubKey, "key", null);
        if (key == null) return new byte[0];
        byte[] k;
        try {
            k = Base64.getDecoder().decode(key);
        } catch (IllegalArgumentException e) {
            return new byte[0];
        }
        if (type.endsWith("ed25519.PubKey")) return Arrays.copyOf(Hashes.sha256(k), 20);
        if (type.endsWith("secp256k1.PubKey")) return Hashes.ripemd160(Hashes.sha256(k));
        return new byte[0];
    }
}
