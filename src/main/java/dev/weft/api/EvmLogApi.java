package dev.weft.api;

import dev.weft.bus.BusError;
import dev.weft.chain.Hex;
import dev.weft.runtime.NodeContext;
import dev.weft.store.EvmLogStore;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code GET /indexer/evm/v1/logs}: the indexed EVM logs of a height range (both ends required, at most
 * {@code api.evm_logs.max_range} heights), filtered by emitting contract and topics as {@code eth_getLogs} filters
 * them (one value per position), in keyset pages; each log as its receipt holds it. 404 on a chain without an EVM.
 */
public final class EvmLogApi implements ApiModule {
    private final EvmLogStore store;
    private final boolean evm;
    private final long maxRange;

    public EvmLogApi(NodeContext ctx) {
        this.store = new EvmLogStore(ctx.pool());
        this.evm = ctx.config().chain().isEvm();
        this.maxRange = ctx.config().views().evmLogsMaxRange();
    }

    @Override
    public void mount(Router router) {
        router.get("/indexer/evm/v1/logs").handler(evm ? this::logs : EvmTxApi::unavailable);
    }

    @Override
    public String openApiFragment() {
        return "openapi/evm-logs.json";
    }

    private void logs(RoutingContext rc) {
        PageRequest page = PageRequest.parse(rc);
        if (page.offset() != 0)
            throw BusError.badRequest("pagination.offset is not supported on logs: follow next_key");
        Long[] range = IndexerParams.heightRange(rc);
        if (range[0] == null) throw BusError.invalidValue("from_height", "", "is required");
        if (range[1] == null) throw BusError.invalidValue("to_height", "", "is required");
        if (range[1] - range[0] + 1 > maxRange)
            throw BusError.invalidValue(
                    "to_height",
                    Long.toString(range[1]),
                    "the range spans more than " + maxRange + " heights (api.evm_logs.max_range)");
        byte[] address = hex(rc, "address", 20);
        byte[][] topics = new byte[4][];
        for (int i = 0; i < 4; i++) topics[i] = hex(rc, "topic" + i, 32);
        Long h = page.hasCursor() ? page.cursorLong("height") : null;
        Long s = page.hasCursor() ? page.cursorLong("sequence") : null;
        Integer p = page.hasCursor() ? (int) Math.min(Integer.MAX_VALUE, page.cursorLong("log_position")) : null;
        store.page(new EvmLogStore.Query(address, topics, range[0], range[1], page.reverse(), h, s, p, page.limit()))
                .onSuccess(r -> {
                    List<io.vertx.core.buffer.Buffer> rows =
                            new ArrayList<>(r.rows().size());
                    for (EvmLogStore.Log l : r.rows()) rows.add(l.json());
                    JsonObject next = null;
                    if (r.more()) {
                        EvmLogStore.Log last = r.rows().get(r.rows().size() - 1);
                        next = new JsonObject()
                                .put("height", last.height())
                                .put("sequence", last.sequence())
                                .put("log_position", last.position());
                    }
                    Responses.json(rc, IndexerParams.listBody("logs", rows, PageResponse.cursor(next, 0, page)));
                })
                .onFailure(rc::fail);
    }

    /** An optional hex parameter of exactly {@code bytes} bytes (0x optional, any case), or null. */
    private static byte[] hex(RoutingContext rc, String name, int bytes) {
        String v = rc.queryParams().get(name);
        if (v == null || v.isBlank()) return null;
        if (!Hex.isHex(v.trim(), bytes))
            throw BusError.invalidValue(name, v, "must be hex of " + bytes + " bytes (" + 2 * bytes + " digits)");
        return Hex.decode(v.trim());
    }
}
