package dev.weft.api;

import dev.weft.bus.BusError;
import dev.weft.chain.AccountAddress;
import dev.weft.chain.Hex;
import dev.weft.chain.model.Rfc3339;
import dev.weft.config.ChainConfig;
import dev.weft.store.AccountStore;
import dev.weft.store.BlockStore;
import dev.weft.store.RichListStore;
import io.vertx.core.Future;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.List;

/**
 * The CSV export of an account's fungible transfers ({@code format=csv} on {@code /indexer/account/v1/{address}/transfers}):
 * the JSON list's filters ({@code token}, {@code direction}, heights and times, {@code pagination.reverse},
 * {@code pagination.key} as the start), walked by (sequence, transfer index), one row per transfer, the columns of the
 * JSON rows (documented in docs/indexer-api.md).
 */
final class TransferCsv {
    static final List<String> COLUMNS =
            List.of("height", "timestamp", "txhash", "index", "kind", "token", "from", "to", "amount", "direction");

    /** A (sequence, transfer index) position. */
    record Position(long sequence, int index) {}

    private TransferCsv() {}

    static void export(
            RoutingContext rc,
            BlockStore blocks,
            AccountStore accounts,
            RichListStore richList,
            ChainConfig.Vm vm,
            String prefix,
            AccountAddress account,
            AccountStore.Direction direction,
            String token,
            dev.weft.config.ExportConfig export) {
        PageRequest page = PageRequest.parse(rc);
        if (page.offset() != 0)
            throw BusError.badRequest("pagination.offset is not supported on transfers: follow next_key");
        byte[] a = account.bytes();
        String name = "transfers-" + account.bech32(prefix) + ".csv";
        AccountApi.transferQuery(rc, blocks, richList, vm, prefix, a, direction, token, page, 1)
                .onSuccess(q -> {
                    Position start =
                            q == null || q.boundSeq() == null ? null : new Position(q.boundSeq(), q.boundIndex());
                    CsvExport.<Position>stream(
                            rc,
                            name,
                            COLUMNS,
                            export,
                            start,
                            (at, limit) -> q == null
                                    ? Future.succeededFuture(new CsvExport.Page<>(List.of(), null))
                                    : accounts.transfers(new AccountStore.TransferQuery(
                                                    q.account(),
                                                    q.direction(),
                                                    q.token(),
                                                    q.fromHeight(),
                                                    q.toHeight(),
                                                    q.desc(),
                                                    at == null ? null : at.sequence(),
                                                    at == null ? null : at.index(),
                                                    limit))
                                            .map(p -> page(p, a)));
                })
                .onFailure(rc::fail);
    }

    private static CsvExport.Page<Position> page(AccountStore.TransferPage p, byte[] account) {
        List<String[]> rows = new ArrayList<>(p.rows().size());
        for (AccountStore.Transfer x : p.rows())
            rows.add(new String[] {
                Long.toString(x.height()),
                Rfc3339.nanos(x.timeNs()),
                Hex.upper(x.txHash()),
                Integer.toString(x.index()),
                AccountApi.kind(x.kind()),
                Hex.prefixed(x.token()),
                Hex.prefixed(x.from()),
                Hex.prefixed(x.to()),
                x.amount(),
                AccountApi.direction(x, account)
            });
        Position next = null;
        if (p.more() && !p.rows().isEmpty()) {
            AccountStore.Transfer last = p.rows().get(p.rows().size() - 1);
            next = new Position(last.sequence(), last.index());
        }
        return new CsvExport.Page<>(rows, next);
    }
}
