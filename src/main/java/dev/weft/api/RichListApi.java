package dev.weft.api;

import dev.weft.bus.BusError;
import dev.weft.chain.AccountAddress;
import dev.weft.chain.Hashes;
import dev.weft.chain.Hex;
import dev.weft.config.ChainConfig;
import dev.weft.runtime.NodeContext;
import dev.weft.store.RichListStore;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * {@code GET /indexer/richlist/v1/{denom}}: the holders of a fungible token by balance, largest first (ties by account),
 * offset pages with the exact number of holders. On EVM chains the denom is the ERC-20's contract address (any case) or
 * a bank denom ({@code /} given as {@code %2F} or as is), mapped to its contract through the mapping learned at index
 * time (never a node call); an {@code ibc/} hash matches in any case. On Move chains it is the fungible asset's
 * metadata address or a denom (whose metadata object is derived from it); on Wasm chains a CW20 contract. An unknown
 * well-formed denom gives an empty page.
 */
public final class RichListApi implements ApiModule {
    /** A Cosmos SDK denom. */
    private static final Pattern DENOM = Pattern.compile("[a-zA-Z][a-zA-Z0-9/:._-]{2,127}");

    /** Move's {@code object::create_object_address} seed suffix: the metadata object of a coin is named by its denom. */
    private static final byte OBJECT_FROM_SEED = (byte) 0xFE;

    private final RichListStore store;
    private final ChainConfig.Vm vm;
    private final String bech32Prefix;

    public RichListApi(NodeContext ctx) {
        this.store = new RichListStore(ctx.pool());
        this.vm = ctx.config().chain().vm();
        this.bech32Prefix = ctx.config().chain().bech32Prefix();
    }

    @Override
    public void mount(Router router) {
        // a regex route: a bank denom's slash may arrive encoded (%2F) or as is (ibc/…, l2/…)
        router.getWithRegex("/indexer/richlist/v1/(?<denom>.+)").handler(this::holders);
    }

    @Override
    public String openApiFragment() {
        return "openapi/richlist.json";
    }

    private void holders(RoutingContext rc) {
        String denom = rc.pathParam("denom");
        PageRequest page = PageRequest.parse(rc);
        Future<byte[]> token = token(store, vm, bech32Prefix, denom);
        token.compose(contract -> contract == null
                        ? Future.succeededFuture((JsonObject) null)
                        : store.holders(contract, page.reverse(), page.offset(), page.limit(), page.countTotal())
                                .map(p -> {
                                    JsonArray items = new JsonArray();
                                    for (RichListStore.Holder h : p.rows())
                                        items.add(new JsonObject()
                                                .put("account", Hex.prefixed(h.account()))
                                                .put("amount", h.amount()));
                                    return new JsonObject()
                                            .put("holders", items)
                                            .put("pagination", PageResponse.offset(page, p.more(), p.total()));
                                }))
                .onSuccess(body -> Responses.json(
                        rc,
                        body != null
                                ? body
                                : new JsonObject()
                                        .put("holders", new JsonArray())
                                        .put("pagination", PageResponse.offset(page, false, 0))))
                .onFailure(rc::fail);
    }

    /**
     * The token a denom names on a chain of this VM, as the rich list and the transfer rows store it: an ERC-20 contract
     * (its address, an {@code evm/<hex>} denom or a bank denom's stored mapping; null when the mapping is unknown), a
     * Move metadata object, a CW20 contract. A malformed value is a 400 naming {@code denom}.
     */
    static Future<byte[]> token(RichListStore store, ChainConfig.Vm vm, String bech32Prefix, String denom) {
        return switch (vm) {
            case EVM -> contract(store, denom);
            case MOVE -> Future.succeededFuture(metadata(denom));
            case WASM -> Future.succeededFuture(cw20(bech32Prefix, denom));
        };
    }

    /**
     * The fungible-asset metadata object of a Move chain's token: its address ({@code 0x} + hex, Move's short forms such
     * as {@code 0x1} left-padded), a {@code move/<hex>} denom, or a coin's denom, whose metadata is the object
     * {@code 0x1::coin} names after it (initia-labs/movevm {@code coin.move}: sha3-256(@0x1 ‖ denom ‖ 0xFE)).
     */
    private static byte[] metadata(String denom) {
        String d = denom == null ? "" : denom.trim();
        String hex =
                d.startsWith("0x") || d.startsWith("0X") ? d : d.startsWith("move/") ? "0x" + d.substring(5) : null;
        if (hex != null) {
            String h = Hex.strip(hex);
            if (h.isEmpty() || h.length() > 64 || !Hex.isDigits(h, 0))
                throw BusError.invalidValue("denom", denom, "invalid metadata address");
            byte[] raw = Hex.decode(h.length() % 2 == 0 ? h : "0" + h);
            byte[] out = new byte[32];
            System.arraycopy(raw, 0, out, 32 - raw.length, raw.length);
            return out;
        }
        if (!DENOM.matcher(d).matches()) throw BusError.invalidValue("denom", denom, "invalid denom");
        byte[] seed = d.getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(32 + seed.length + 1)
                .put(new byte[31])
                .put((byte) 1)
                .put(seed)
                .put(OBJECT_FROM_SEED);
        return Hashes.sha3_256(b.array());
    }

    /** A CW20 contract: its bech32 address of the chain's prefix, or its 32 bytes as hex. */
    private static byte[] cw20(String bech32Prefix, String denom) {
        String d = denom == null ? "" : denom.trim();
        try {
            AccountAddress a = AccountAddress.parse(d, bech32Prefix);
            if (a.length() == 32) return a.bytes();
        } catch (IllegalArgumentException e) {
            // answered below
        }
        throw BusError.invalidValue("denom", denom, "invalid cw20 contract address");
    }

    /** The contract of a denom: the address itself, or the stored mapping of a bank denom (null when unknown). */
    private static Future<byte[]> contract(RichListStore store, String denom) {
        String d = denom == null ? "" : denom.trim();
        if (d.startsWith("0x") || d.startsWith("0X")) {
            if (!Hex.isHex(d, 20)) throw BusError.invalidValue("denom", denom, "invalid contract address");
            return Future.succeededFuture(Hex.decode(d));
        }
        if (!DENOM.matcher(d).matches()) throw BusError.invalidValue("denom", denom, "invalid denom");
        // minievm's own rule (ContractAddressFromDenom): an "evm/<hex>" denom names its ERC-20 contract; such tokens
        // may
        // never move through bank messages, so the stored mapping would not know them. Any case, as rollytics
        // lower-cases
        // the denom before asking the node
        if (d.regionMatches(true, 0, "evm/", 0, 4) && Hex.isHex("0x" + d.substring(4), 20)) {
            return Future.succeededFuture(Hex.decode("0x" + d.substring(4)));
        }
        return store.contractOf(d);
    }
}
