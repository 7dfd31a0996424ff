package dev.weft.track;

import dev.weft.bus.Addresses;
import dev.weft.bus.BusError;
import dev.weft.chain.AccountAddress;
import dev.weft.config.TrackConfig;
import dev.weft.route.registry.Chain;
import dev.weft.store.TransferStore;
import dev.weft.store.WatchStore;
import io.vertx.core.Future;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Watched addresses ({@code /v2/watch}) and the transfers found for them ({@code /v2/tx/by_address}), answered from the
 * database by every API instance: a watch is a row the tracker loads (it is told over the bus,
 * {@link Addresses#TRACK_WATCHES_CHANGED}), wherever it runs.
 */
final class WatchService {
    static final int DEFAULT_LIMIT = 20;
    static final int MAX_LIMIT = 100;
    private static final Pattern CURSOR = Pattern.compile("([0-9]{1,18})-([0-9]{1,18})");

    private final WatchStore watches;
    private final TransferStore transfers;
    private final TrackChains chains;
    private final EventBus bus;
    private final TrackConfig config;
    /** A chain's head (null when unknown): where a new watch's transfers are looked for from. */
    private final Function<String, Future<Long>> heads;

    WatchService(
            WatchStore watches,
            TransferStore transfers,
            TrackChains chains,
            EventBus bus,
            TrackConfig config,
            Function<String, Future<Long>> heads) {
        this.heads = heads;
        this.watches = watches;
        this.transfers = transfers;
        this.chains = chains;
        this.bus = bus;
        this.config = config;
    }

    /** {@code {op, client, chain_id, address}} of {@link Addresses#TRACK_WATCH}. */
    Future<JsonObject> watch(JsonObject req) {
        String client = req.getString("client", "");
        String op = req.getString("op", "");
        if (op.equals("list"))
            return watches.list(client, config.watchMaxPerClient()).map(l -> {
                JsonArray out = new JsonArray();
                l.forEach(w -> out.add(json(w)));
                return new JsonObject().put("watches", out);
            });
        String chain = chain(req);
        byte[] key = key(chains, chain, req.getValue("address"));
        return switch (op) {
            // the head first: every block after it holds what the client broadcasts once answered
            case "add" ->
                heads.apply(chain)
                        .compose(head -> watches.add(
                                client, chain, key, head, config.watchMaxPerClient(), config.watchMaxTotal()))
                        .map(a -> {
                            if ("client".equals(a.refused()))
                                throw new BusError(
                                        429,
                                        "too many watched addresses for this client: at most "
                                                + config.watchMaxPerClient());
                            if (a.refused() != null)
                                throw new BusError(
                                        429,
                                        "watch capacity reached: " + config.watchMaxTotal()
                                                + " addresses are watched; retry later");
                            if (a.created()) changed(chain, key);
                            return json(a.watch()).put("created", a.created());
                        });
            case "get" ->
                watches.find(client, chain, key).map(w -> {
                    if (w == null) throw BusError.notFound("address not watched");
                    return json(w);
                });
            case "delete" ->
                watches.delete(client, chain, key).map(d -> {
                    if (!d) throw BusError.notFound("address not watched");
                    changed(chain, key);
                    return new JsonObject().put("deleted", true);
                });
            default -> Future.failedFuture(BusError.badRequest("unknown op " + op));
        };
    }

    /** {@code {chain_id, address, limit, cursor}} → {@code {txs, next}}, newest first. */
    Future<JsonObject> byAddress(JsonObject req) {
        String chain = chain(req);
        byte[] key = key(chains, chain, req.getValue("address"));
        int limit = limit(req.getValue("limit"));
        Long beforeHeight = null, beforeId = null;
        Object c = req.getValue("cursor");
        if (c != null) {
            var m = c instanceof String s ? CURSOR.matcher(s.trim()) : null;
            if (m == null || !m.matches())
                throw BusError.badRequest("invalid cursor: pass the next of a previous page as it is");
            beforeHeight = Long.parseLong(m.group(1));
            beforeId = Long.parseLong(m.group(2));
        }
        return watches.found(chain, key, beforeHeight, beforeId, limit + 1).compose(found -> {
            List<WatchStore.Found> page = found.size() > limit ? found.subList(0, limit) : found;
            String next = found.size() > limit
                    ? page.get(page.size() - 1).height() + "-"
                            + page.get(page.size() - 1).transferId()
                    : null;
            return transfers
                    .byIds(page.stream().map(WatchStore.Found::transferId).toList())
                    .map(stored -> {
                        JsonArray txs = new JsonArray();
                        for (TransferStore.Stored s : stored) {
                            JsonObject status = StatusJson.of(s.transfer(), chains::explorerLink);
                            JsonObject tx = new JsonObject()
                                    .put("tx_hash", s.transfer().txHash)
                                    .put("chain_id", s.transfer().chainId)
                                    .put(
                                            "explorer_link",
                                            chains.explorerLink(s.transfer().chainId, s.transfer().txHash));
                            status.forEach(e -> tx.put(e.getKey(), e.getValue()));
                            txs.add(tx);
                        }
                        return new JsonObject().put("txs", txs).put("next", next);
                    });
        });
    }

    private void changed(String chain, byte[] key) {
        bus.publish(
                Addresses.TRACK_WATCHES_CHANGED,
                new JsonObject()
                        .put("chain_id", chain)
                        .put("address", AccountAddress.of(key).hex()));
    }

    private JsonObject json(WatchStore.Watch w) {
        return new JsonObject()
                .put("chain_id", w.chainId())
                .put("address", display(w.chainId(), w.address()))
                .put(
                        "created_at",
                        w.createdAt().atZoneSameInstant(ZoneOffset.UTC).format(DateTimeFormatter.ISO_INSTANT));
    }

    /** An account as its chain shows it: bech32 with the chain's prefix, else (an EVM chain) checksummed hex. */
    private String display(String chain, byte[] key) {
        Chain c = chains.registry().chain(chain);
        AccountAddress a = AccountAddress.of(key);
        return c == null || c.bech32Prefix() == null ? a.checksumHex() : a.bech32(c.bech32Prefix());
    }

    private String chain(JsonObject req) {
        Object c = req.getValue("chain_id");
        if (!(c instanceof String s) || s.isBlank()) throw BusError.badRequest("chain_id is required");
        if (!chains.supported(s.trim())) throw BusError.notFound("chain ID not supported");
        return s.trim();
    }

    /**
     * The key bytes of an address of a chain: bech32 with the chain's prefix or hex of 20 or 32 bytes (with or
     * without 0x), both naming the same account; a 400 naming the address otherwise.
     */
    static byte[] key(TrackChains chains, String chain, Object address) {
        if (!(address instanceof String s) || s.isBlank()) throw BusError.badRequest("address is required");
        Chain c = chains.registry().chain(chain);
        String prefix = c == null || c.bech32Prefix() == null ? null : c.bech32Prefix();
        byte[] bytes;
        try {
            // no bech32 prefix (an EVM chain): one no address starts with, so only hex parses
            bytes = AccountAddress.parse(s.trim(), prefix == null ? "\u0000" : prefix)
                    .bytes();
        } catch (RuntimeException e) {
            if (prefix == null)
                throw BusError.badRequest("invalid address " + s.trim() + ": expected a 0x address of 20 bytes");
            throw BusError.badRequest("invalid address " + s.trim() + ": expected bech32 with prefix " + prefix
                    + " or hex of 20 or 32 bytes");
        }
        // an EVM chain's accounts (the OFTSent senders looked for) have 20 bytes
        if (chains.isEvm(chain) && bytes.length != 20)
            throw BusError.badRequest("invalid address " + s.trim() + ": expected a 0x address of 20 bytes");
        return bytes;
    }

    private static int limit(Object v) {
        if (v == null) return DEFAULT_LIMIT;
        int n;
        try {
            n = v instanceof Number x
                    ? x.intValue()
                    : Integer.parseInt(v.toString().trim());
        } catch (NumberFormatException e) {
            throw BusError.badRequest("limit must be an integer from 1 to " + MAX_LIMIT);
        }
        if (n < 1 || n > MAX_LIMIT) throw BusError.badRequest("limit must be an integer from 1 to " + MAX_LIMIT);
        return n;
    }
}
