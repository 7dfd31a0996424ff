package dev.weft.api;

import dev.weft.store.BlockStore;
import dev.weft.store.TxStore;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * The CSV export of an account's Cosmos txs and EVM txs ({@code format=csv} on {@code txs/by_account} and
 * {@code evm-txs/by_account}): the same query as the JSON list (signer flag, {@code msgs}, {@code category}, height and
 * time range, {@code pagination.reverse} and {@code pagination.key} as the start), walked by sequence, one row per tx.
 * The columns are documented in docs/indexer-api.md.
 */
final class TxCsv {
    static final List<String> COSMOS_COLUMNS = List.of(
            "height", "timestamp", "txhash", "code", "codespace", "gas_wanted", "gas_used", "fee", "messages", "memo");
    static final List<String> EVM_COLUMNS = List.of(
            "height",
            "transaction_hash",
            "transaction_index",
            "from",
            "to",
            "contract_address",
            "status",
            "gas_used",
            "effective_gas_price",
            "type");

    private TxCsv() {}

    /** Streams {@code q}'s txs (its bound, limit, offset and total are replaced page by page) as CSV. */
    static void export(
            RoutingContext rc,
            TxStore txs,
            TxStore.Query q,
            long start,
            dev.weft.config.ExportConfig export,
            String filename) {
        boolean cosmos = q.stream() == TxStore.Stream.COSMOS;
        CsvExport.<Long>stream(
                rc,
                filename,
                cosmos ? COSMOS_COLUMNS : EVM_COLUMNS,
                export,
                start,
                (bound, limit) -> txs.page(new TxStore.Query(
                                q.stream(),
                                q.filter(),
                                q.key(),
                                q.msgTypes(),
                                q.desc(),
                                bound,
                                0,
                                limit,
                                false,
                                q.fromHeight(),
                                q.toHeight(),
                                q.category()))
                        .map(p -> page(p, cosmos)));
    }

    private static CsvExport.Page<Long> page(BlockStore.Page p, boolean cosmos) {
        List<String[]> rows = new ArrayList<>(p.rows().size());
        for (Buffer b : p.rows()) {
            JsonObject tx = new JsonObject(b);
            rows.add(cosmos ? cosmos(tx) : evm(tx));
        }
        return new CsvExport.Page<>(rows, p.more() ? p.lastKey() : null);
    }

    private static String[] cosmos(JsonObject tx) {
        JsonObject inner = obj(tx.getValue("tx"));
        JsonObject body = obj(inner.getValue("body"));
        JsonObject fee = obj(obj(inner.getValue("auth_info")).getValue("fee"));
        return new String[] {
            str(tx.getValue("height")),
            str(tx.getValue("timestamp")),
            str(tx.getValue("txhash")),
            str(tx.getValue("code")),
            str(tx.getValue("codespace")),
            str(tx.getValue("gas_wanted")),
            str(tx.getValue("gas_used")),
            coins(fee.getValue("amount")),
            messageTypes(body.getValue("messages")),
            str(body.getValue("memo"))
        };
    }

    private static String[] evm(JsonObject r) {
        return new String[] {
            decimal(r.getValue("blockNumber")),
            str(r.getValue("transactionHash")),
            decimal(r.getValue("transactionIndex")),
            str(r.getValue("from")),
            str(r.getValue("to")),
            str(r.getValue("contractAddress")),
            decimal(r.getValue("status")),
            decimal(r.getValue("gasUsed")),
            decimal(r.getValue("effectiveGasPrice")),
            decimal(r.getValue("type"))
        };
    }

    /** Coins as the SDK prints them: amount and denom, comma-separated ({@code 10uinit,5uusdc}). */
    private static String coins(Object amount) {
        if (!(amount instanceof JsonArray a)) return "";
        StringBuilder sb = new StringBuilder();
        for (Object c : a) {
            JsonObject coin = obj(c);
            if (sb.length() > 0) sb.append(',');
            sb.append(str(coin.getValue("amount"))).append(str(coin.getValue("denom")));
        }
        return sb.toString();
    }

    /** The messages' {@code @type}s, space-separated, in tx order. */
    private static String messageTypes(Object messages) {
        if (!(messages instanceof JsonArray a)) return "";
        StringBuilder sb = new StringBuilder();
        for (Object m : a) {
            if (sb.length() > 0) sb.append(' ');
            sb.append(str(obj(m).getValue("@type")));
        }
        return sb.toString();
    }

    /** A 0x quantity as decimal (what spreadsheets read); any other value as it is. */
    static String decimal(Object v) {
        String s = str(v);
        if (s.length() > 2 && (s.startsWith("0x") || s.startsWith("0X")) && s.length() <= 66) {
            try {
                return new BigInteger(s.substring(2), 16).toString();
            } catch (NumberFormatException e) {
                return s;
            }
        }
        return s;
    }

    private static JsonObject obj(Object v) {
        return v instanceof JsonObject o ? o : new JsonObject();
    }

    private static String str(Object v) {
        return v == null ? "" : v.toString();
    }
}
