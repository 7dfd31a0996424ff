package dev.weft.ingest;

import dev.weft.chain.CosmosTx;
import dev.weft.chain.model.RestTx;
import java.util.ArrayDeque;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Pairs the REST-decoded txs of a block with its raw txs. The REST JSON has no hash, so a tx is identified by what
 * both forms carry: its signatures and its message type URLs (rollytics matches on signatures alone). Identical
 * keys (unsigned duplicates) pair in block order. The result says which raw txs are still unmatched, so a short or
 * truncated REST answer is detected and retried instead of indexed.
 */
final class TxMatcher {
    private TxMatcher() {}

    static String key(CosmosTx tx) {
        StringBuilder sb = new StringBuilder(128);
        Base64.Encoder b64 = Base64.getEncoder();
        for (byte[] sig : tx.signatures()) sb.append(b64.encodeToString(sig)).append(',');
        sb.append('|');
        for (CosmosTx.Any m : tx.messages()) sb.append(m.typeUrl()).append(',');
        return sb.toString();
    }

    static String key(RestTx restTx) {
        StringBuilder sb = new StringBuilder(128);
        for (String s : restTx.signatures()) sb.append(s).append(',');
        sb.append('|');
        for (String t : restTx.msgTypes()) sb.append(t).append(',');
        return sb.toString();
    }

    /**
     * Fills the empty {@code slots} (one per raw tx, in block order) with matching REST txs.
     *
     * @return how many raw txs are still without their REST tx
     */
    static int match(List<String> rawKeys, List<RestTx> rest, RestTx[] slots) {
        Map<String, ArrayDeque<Integer>> open = new HashMap<>();
        for (int i = 0; i < rawKeys.size(); i++) {
            if (slots[i] == null)
                open.computeIfAbsent(rawKeys.get(i), k -> new ArrayDeque<>()).add(i);
        }
        for (RestTx t : rest) {
            ArrayDeque<Integer> q = open.get(key(t));
            if (q == null || q.isEmpty()) continue;
            slots[q.poll()] = t;
        }
        int missing = 0;
        for (RestTx s : slots) if (s == null) missing++;
        return missing;
    }
}
