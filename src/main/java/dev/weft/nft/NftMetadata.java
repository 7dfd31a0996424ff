package dev.weft.nft;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.chain.AccountAddress;
import dev.weft.chain.client.CosmosRestClient;
import dev.weft.chain.client.EthCalls;
import dev.weft.chain.client.EvmRpcClient;
import dev.weft.chain.client.NodeException;
import dev.weft.config.ChainConfig;
import dev.weft.model.nft.NftAddresses;
import dev.weft.model.nft.NftEvent;
import io.vertx.core.Future;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Completes the parsed NFT changes of a block from the node, at that block's height, before the block is committed
 * (never inside the database transaction): ERC-721 {@code name()} of each collection not seen before and
 * {@code tokenURI(id)} of each mint and transfer (a token minted before the indexed history is first seen in a
 * transfer), as one {@code eth_call} batch per block; Move {@code 0x1::nft::Nft} resources
 * (token id, URI) of mints and {@code 0x1::collection::Collection} resources of collections created before the
 * indexed history; Wasm {@code contract_info} (name), the contract's creator and the {@code nft_info} URI of
 * transferred tokens. A collection whose {@code name()}
 * reverts, or a Wasm contract that does not answer {@code contract_info} ("unknown variant"), is not an NFT
 * collection: its changes are dropped and it is remembered. A REST query the node does not serve (a 4xx, a 501)
 * fails soft: the value is left empty. Any other node failure fails the block, which is fetched again.
 *
 * <p>The output names every collection the block touches (a COLLECTION change first, from the remembered metadata),
 * so each block carries what its statements need whatever order blocks were fetched in.
 */
public final class NftMetadata {
    private static final Logger LOG = LoggerFactory.getLogger(NftMetadata.class);
    private static final int BATCH = 500;

    /** What is known of a collection; {@code skip}: not an NFT collection. */
    public record Meta(String name, AccountAddress creator, boolean skip) {
        static final Meta SKIP = new Meta("", null, true);
    }

    private final ChainConfig.Vm vm;
    private final String prefix;
    private final EvmRpcClient evm;
    private final CosmosRestClient rest;
    private final Map<AccountAddress, Meta> known = new ConcurrentHashMap<>();

    /** @param evm the JSON-RPC client (EVM chains), else null */
    public NftMetadata(ChainConfig chain, EvmRpcClient evm, CosmosRestClient rest) {
        this.vm = chain.vm();
        this.prefix = chain.bech32Prefix();
        this.evm = evm;
        this.rest = rest;
    }

    /** A collection already stored (loaded at start, so a restart does not ask the node again). */
    public void remember(AccountAddress collection, String name, AccountAddress creator) {
        known.put(collection, new Meta(name, creator, false));
    }

    public Future<List<NftEvent>> resolve(long height, List<NftEvent> parsed) {
        if (parsed.isEmpty()) return Future.succeededFuture(parsed);
        for (NftEvent e : parsed) {
            if (e.kind() == NftEvent.Kind.COLLECTION && vm == ChainConfig.Vm.MOVE) {
                known.putIfAbsent(e.collection(), new Meta(e.text() == null ? "" : e.text(), e.account(), false));
            }
        }
        Future<List<NftEvent>> tokens = switch (vm) {
            case EVM -> evm(height, parsed);
            case MOVE -> move(height, parsed);
            case WASM -> wasm(height, parsed).compose(v -> wasmTransferUris(height, parsed));
        };
        return tokens.map(this::withCollections);
    }

    /** COLLECTION changes for every collection touched (in first-touch order), then the token changes of live ones. */
    private List<NftEvent> withCollections(List<NftEvent> events) {
        Map<AccountAddress, Integer> firstTouch = new LinkedHashMap<>();
        for (NftEvent e : events) if (e.collection() != null) firstTouch.putIfAbsent(e.collection(), e.txIndex());
        List<NftEvent> out = new ArrayList<>(events.size() + firstTouch.size());
        firstTouch.forEach((c, tx) -> {
            Meta m = known.get(c);
            if (m != null && !m.skip()) out.add(NftEvent.collection(tx, c, m.creator(), m.name()));
        });
        for (NftEvent e : events) {
            if (e.kind() == NftEvent.Kind.COLLECTION) continue;
            if (e.collection() != null) {
                Meta m = known.get(e.collection());
                if (m == null || m.skip()) continue;
            }
            out.add(e);
        }
        return out;
    }

    // ---- EVM: one eth_call batch per block ----

    private Future<List<NftEvent>> evm(long height, List<NftEvent> parsed) {
        List<AccountAddress> unknown = new ArrayList<>();
        for (NftEvent e : parsed)
            if (e.collection() != null && !known.containsKey(e.collection()) && !unknown.contains(e.collection()))
                unknown.add(e.collection());
        List<Integer> mints = new ArrayList<>();
        List<EvmRpcClient.Request> calls = new ArrayList<>();
        for (AccountAddress c : unknown) calls.add(EthCalls.call(c, EthCalls.NAME, height));
        for (int i = 0; i < parsed.size(); i++) {
            NftEvent e = parsed.get(i);
            Meta m = known.get(e.collection());
            // a transfer's URI too: its token may have been minted before the indexed history, and then is first seen
            // here
            boolean wantsUri = e.kind() == NftEvent.Kind.MINT || e.kind() == NftEvent.Kind.TRANSFER;
            if (wantsUri && e.text() == null && (m == null || !m.skip())) {
                mints.add(i);
                calls.add(EthCalls.call(e.collection(), EthCalls.tokenUri(new BigInteger(e.tokenId())), height));
            }
        }
        if (calls.isEmpty()) return Future.succeededFuture(parsed);
        return EthCalls.batched(evm, calls, BATCH, 1).map(results -> {
            for (int i = 0; i < unknown.size(); i++) {
                EvmRpcClient.Result r = results.get(i);
                String name = r.ok() ? EthCalls.decodeString(r.result()) : null;
                if (!r.ok() && !EthCalls.reverted(r.error()))
                    throw failure("name() of " + unknown.get(i) + " at " + height, r.error());
                if (name == null)
                    LOG.info(
                            "contract {} emits ERC-721 Transfers but has no name(): not indexed as a collection",
                            unknown.get(i));
                known.putIfAbsent(unknown.get(i), name == null ? Meta.SKIP : new Meta(name, null, false));
            }
            List<NftEvent> out = new ArrayList<>(parsed);
            for (int k = 0; k < mints.size(); k++) {
                EvmRpcClient.Result r = results.get(unknown.size() + k);
                if (!r.ok() && !EthCalls.reverted(r.error())) throw failure("tokenURI at " + height, r.error());
                String uri = r.ok() ? EthCalls.decodeString(r.result()) : null;
                int at = mints.get(k);
                out.set(at, out.get(at).withText(uri == null ? "" : uri));
            }
            return out;
        });
    }

    private static NodeException failure(String what, JsonNode error) {
        return NodeException.rpc(
                what, error.path("code").asInt(), error.path("message").asText(""));
    }

    // ---- Move: resources at the height ----

    private Future<List<NftEvent>> move(long height, List<NftEvent> parsed) {
        List<NftEvent> out = new ArrayList<>(parsed);
        List<Future<?>> all = new ArrayList<>();
        Map<AccountAddress, Future<Meta>> collections = new LinkedHashMap<>();
        for (int i = 0; i < out.size(); i++) {
            NftEvent e = out.get(i);
            if (e.collection() != null && !known.containsKey(e.collection())) {
                collections.computeIfAbsent(
                        e.collection(), c -> moveCollection(c, height).onSuccess(m -> known.putIfAbsent(c, m)));
            }
            int at = i;
            if (e.kind() == NftEvent.Kind.MINT || e.kind() == NftEvent.Kind.URI && e.text() == null) {
                all.add(moveNft(e.object(), height).onSuccess(nft -> {
                    NftEvent x = out.get(at);
                    if (x.kind() == NftEvent.Kind.MINT) {
                        String id = nft != null && nft.tokenId() != null ? nft.tokenId() : x.tokenId();
                        out.set(at, x.withTokenId(id).withText(nft != null && nft.uri() != null ? nft.uri() : ""));
                    } else {
                        out.set(at, nft != null && nft.uri() != null ? x.withText(nft.uri()) : null);
                    }
                }));
            }
        }
        all.addAll(collections.values());
        return Future.all(all).map(v -> {
            List<NftEvent> kept = new ArrayList<>(out.size());
            for (NftEvent e : out) {
                if (e == null || e.kind() == NftEvent.Kind.MINT && e.tokenId() == null)
                    continue; // nothing identifies it
                kept.add(e);
            }
            return kept;
        });
    }

    private record MoveNft(String tokenId, String uri) {}

    private Future<MoveNft> moveNft(AccountAddress object, long height) {
        return soft(
                rest.getAtHeight(resourcePath(object, "0x1::nft::Nft"), height, root -> {
                    JsonNode data = resourceData(root);
                    return new MoveNft(textOrNull(data, "token_id"), textOrNull(data, "uri"));
                }),
                null);
    }

    private Future<Meta> moveCollection(AccountAddress c, long height) {
        return soft(
                rest.getAtHeight(resourcePath(c, "0x1::collection::Collection"), height, root -> {
                    JsonNode data = resourceData(root);
                    String creator = textOrNull(data, "creator");
                    return new Meta(
                            textOrNull(data, "name") == null ? "" : textOrNull(data, "name"),
                            creator == null ? null : NftAddresses.account(creator),
                            false);
                }),
                new Meta("", null, false));
    }

    private static String resourcePath(AccountAddress a, String structTag) {
        return "/initia/move/v1/accounts/" + a.hex() + "/resources/by_struct_tag?struct_tag=" + structTag;
    }

    /** {@code resource.move_resource} is a JSON string {@code {"type", "data": {...}}}. */
    private static JsonNode resourceData(JsonNode root) {
        JsonNode r = root.path("resource").path("move_resource");
        JsonNode parsed = r.isTextual()
                ? dev.weft.chain.model.NodeJson.parse(r.asText().getBytes(java.nio.charset.StandardCharsets.UTF_8))
                : r;
        return parsed.path("data");
    }

    private static String textOrNull(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() || v.isContainerNode() ? null : v.asText();
    }

    // ---- Wasm: contract_info and the contract's creator ----

    private Future<Void> wasm(long height, List<NftEvent> parsed) {
        Map<AccountAddress, Future<Meta>> fetches = new LinkedHashMap<>();
        Map<AccountAddress, AccountAddress> eventCreators = new LinkedHashMap<>();
        for (NftEvent e : parsed) {
            if (e.kind() == NftEvent.Kind.COLLECTION && e.account() != null)
                eventCreators.putIfAbsent(e.collection(), e.account());
        }
        for (NftEvent e : parsed) {
            if (e.collection() == null || known.containsKey(e.collection())) continue;
            fetches.computeIfAbsent(
                    e.collection(),
                    c -> wasmCollection(c, eventCreators.get(c), height).onSuccess(m -> known.putIfAbsent(c, m)));
        }
        return Future.all(new ArrayList<>(fetches.values())).mapEmpty();
    }

    /**
     * The {@code token_uri} of each transferred token of a cw721 collection, from its {@code nft_info} query at the
     * height (the token may have been minted before the indexed history, and is then first seen in this transfer).
     */
    private Future<List<NftEvent>> wasmTransferUris(long height, List<NftEvent> parsed) {
        List<NftEvent> out = new ArrayList<>(parsed);
        List<Future<?>> all = new ArrayList<>();
        for (int i = 0; i < out.size(); i++) {
            NftEvent e = out.get(i);
            Meta m = e.collection() == null ? null : known.get(e.collection());
            if (e.kind() != NftEvent.Kind.TRANSFER || e.text() != null || m == null || m.skip()) continue;
            int at = i;
            String query = "{\"nft_info\":{\"token_id\":" + io.vertx.core.json.Json.encode(e.tokenId()) + "}}";
            all.add(soft(
                            rest.getAtHeight(
                                    smartPath(e.collection(), query),
                                    height,
                                    root -> textOrNull(root.path("data"), "token_uri")),
                            null)
                    .onSuccess(uri -> out.set(at, out.get(at).withText(uri == null ? "" : uri))));
        }
        return Future.all(all).map(out);
    }

    private String smartPath(AccountAddress contract, String query) {
        return "/cosmwasm/wasm/v1/contract/" + contract.bech32(prefix) + "/smart/"
                + java.util.Base64.getUrlEncoder()
                        .encodeToString(query.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    private Future<Meta> wasmCollection(AccountAddress contract, AccountAddress eventCreator, long height) {
        String bech32 = contract.bech32(prefix);
        Future<String> name = rest.getAtHeight(
                        smartPath(contract, "{\"contract_info\":{}}"),
                        height,
                        root -> textOrNull(root.path("data"), "name"))
                .recover(e -> e.getMessage() != null && e.getMessage().contains("unknown variant")
                        ? Future.succeededFuture((String) null)
                        : soft(Future.failedFuture(e), ""));
        Future<AccountAddress> creator = soft(
                rest.getAtHeight("/cosmwasm/wasm/v1/contract/" + bech32, height, root -> {
                    String c = textOrNull(root.path("contract_info"), "creator");
                    return c == null ? null : dev.weft.chain.AccountAddress.parse(c, prefix);
                }),
                null);
        return Future.all(name, creator).map(v -> {
            if (name.result() == null) {
                LOG.info("contract {} does not answer contract_info: not indexed as an NFT collection", bech32);
                return Meta.SKIP;
            }
            return new Meta(name.result(), creator.result() != null ? creator.result() : eventCreator, false);
        });
    }

    /**
     * A REST answer the node cannot give (a 4xx: not found, not served; a 501) yields {@code fallback}; other failures
     * (timeouts, 5xx after every retry) fail the block so it is fetched again.
     */
    private static <T> Future<T> soft(Future<T> f, T fallback) {
        return f.recover(e -> {
            if (e instanceof NodeException ne && (!ne.retryable() || ne.status() == 501))
                return Future.succeededFuture(fallback);
            return Future.failedFuture(e);
        });
    }
}
