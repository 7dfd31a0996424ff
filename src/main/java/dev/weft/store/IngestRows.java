package dev.weft.store;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.model.FungibleTransfer;
import dev.weft.model.ingest.BlockJson;
import dev.weft.model.ingest.EvmLogs;
import dev.weft.model.ingest.IndexedBlock;
import dev.weft.model.ingest.TxCategory;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The column lists of every ingest table for a run of blocks (what {@link IngestStore#prepare} sends as arrays), with
 * accounts and message types as their dictionary ids.
 */
final class IngestRows {
    final List<IndexedBlock> blocks;
    final Long[] blockTimes;
    final Buffer[] blockJson;
    int txCount;
    int evmCount;
    /** The sequence of each block's first tx. */
    final List<Long> firstSeq = new ArrayList<>();

    final List<Long> txSeq = new ArrayList<>();
    final List<Long> txHeight = new ArrayList<>();
    final List<Integer> txIndex = new ArrayList<>();
    final List<Buffer> txHash = new ArrayList<>();
    final List<Integer> txCode = new ArrayList<>();
    final List<Long> txSigner = new ArrayList<>();
    final List<Buffer> txJson = new ArrayList<>();
    final List<Long> accId = new ArrayList<>();
    final List<Long> accSeq = new ArrayList<>();
    final List<Boolean> accSigner = new ArrayList<>();
    final List<Integer> msgTypeId = new ArrayList<>();
    final List<Long> msgSeq = new ArrayList<>();
    final List<Long> multiSeq = new ArrayList<>();
    final List<Integer> multiTypeId = new ArrayList<>();
    final List<Long> evmSeq = new ArrayList<>();
    final List<Long> evmHeight = new ArrayList<>();
    final List<Integer> evmIndex = new ArrayList<>();
    final List<Buffer> evmHash = new ArrayList<>();
    final List<Long> evmFrom = new ArrayList<>();
    final List<Buffer> evmJson = new ArrayList<>();
    final List<Long> evmAccId = new ArrayList<>();
    final List<Long> evmAccSeq = new ArrayList<>();
    final List<Boolean> evmAccSigner = new ArrayList<>();
    final List<Long> transferHeight = new ArrayList<>();
    final List<Long> transferSeq = new ArrayList<>();
    final List<Integer> transferIndex = new ArrayList<>();
    final List<Short> transferKind = new ArrayList<>();
    final List<Buffer> transferToken = new ArrayList<>();
    final List<Buffer> transferFrom = new ArrayList<>();
    final List<Buffer> transferTo = new ArrayList<>();
    final List<String> transferAmount = new ArrayList<>();
    /** Bank denoms the run's coin events move → the first height that moves each. */
    final Map<String, Long> coinDenoms = new LinkedHashMap<>();
    /** account id → {txs, signer txs, evm txs, evm signer txs} */
    final Map<Long, long[]> accountStats = new LinkedHashMap<>();

    final List<Long> logHeight = new ArrayList<>();
    final List<Long> logSeq = new ArrayList<>();
    final List<Integer> logPos = new ArrayList<>();
    final List<Buffer> logAddress = new ArrayList<>();
    final List<List<Buffer>> logTopics =
            List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
    /** epoch day (UTC) → txs, and the (day, account id) pairs of the run's txs. */
    final Map<Integer, Long> dayTxs = new LinkedHashMap<>();

    final java.util.Set<List<Long>> dayAccounts = new java.util.LinkedHashSet<>();
    final List<Long> catAccount = new ArrayList<>();
    final List<Short> catCode = new ArrayList<>();
    final List<Long> catSeq = new ArrayList<>();
    /** (account id, category code) → txs */
    final Map<List<Long>, Long> categoryStats = new LinkedHashMap<>();
    /** message type id → txs */
    final Map<Integer, Long> typeStats = new LinkedHashMap<>();

    private final DictionaryStore.Ids ids;

    /** @param ids the dictionary id of every account, signer and message type of the blocks */
    IngestRows(List<IndexedBlock> blocks, Long previousTimeNs, long txBase, long evmBase, DictionaryStore.Ids ids) {
        this.ids = ids;
        this.blocks = blocks;
        this.blockTimes = new Long[blocks.size()];
        this.blockJson = new Buffer[blocks.size()];
        Long prev = previousTimeNs;
        long seq = txBase;
        long evmSeqNext = evmBase;
        for (int bi = 0; bi < blocks.size(); bi++) {
            IndexedBlock b = blocks.get(bi);
            addBlock(bi, b, prev != null ? prev : b.previousTimeNs(), seq, evmSeqNext);
            prev = b.timeNs();
            seq += b.txs().size();
            evmSeqNext += b.evmTxs().size();
        }
    }

    // one method per block and per row kind: small units for the JIT (a loop body inlined into one large constructor,
    // called once per run, was compiled three times, on-stack replacement included, at seconds of C2 time each)
    private void addBlock(int bi, IndexedBlock b, Long previousTimeNs, long seqBefore, long evmSeqBefore) {
        long bt = BlockJson.blockTimeMs(b.timeNs(), previousTimeNs);
        blockTimes[bi] = bt;
        blockJson[bi] = SqlArrays.bytea(BlockJson.render(b, bt));
        firstSeq.add(seqBefore + 1);
        for (int i = 0; i < b.txs().size(); i++) addTx(b, i, seqBefore + 1 + i);
        long evmSeq = evmSeqBefore;
        for (IndexedBlock.EvmTx t : b.evmTxs()) addEvmTx(b, t, ++evmSeq);
    }

    private void addTx(IndexedBlock b, int i, long s) {
        IndexedBlock.Tx t = b.txs().get(i);
        txSeq.add(s);
        txHeight.add(b.height());
        txIndex.add(i);
        txHash.add(SqlArrays.bytea(t.hash()));
        txCode.add(t.code());
        txSigner.add(t.signer() == null ? null : id(t.signer()));
        txJson.add(t.json());
        addAccounts(t.accounts(), s, accId, accSeq, accSigner, 0);
        // a tx's types are distinct (one row per type and tx)
        for (String type : t.msgTypes()) {
            Integer typeId = resolved(ids.msgTypes(), type);
            msgTypeId.add(typeId);
            msgSeq.add(s);
            typeStats.merge(typeId, 1L, Long::sum);
            if (t.msgTypes().size() > 1) {
                multiSeq.add(s);
                multiTypeId.add(typeId);
            }
        }
        addCategories(t, s);
        int day = (int) Math.floorDiv(b.timeNs(), 86_400_000_000_000L);
        dayTxs.merge(day, 1L, Long::sum);
        for (AccountAddress a : t.accounts().keySet()) dayAccounts.add(List.of((long) day, id(a)));
        for (int k = 0; k < t.transfers().size(); k++)
            addTransfer(b.height(), s, k, t.transfers().get(k));
        for (String d : t.coinDenoms()) coinDenoms.putIfAbsent(d, b.height());
        txCount++;
    }

    /** The receipt's logs as {@code evm_log} rows, numbered by their place in the receipt. */
    private void addLogs(long height, long s, IndexedBlock.EvmTx t) {
        List<EvmLogs.Log> logs = EvmLogs.of(t.json().getBytes());
        for (int i = 0; i < logs.size(); i++) {
            EvmLogs.Log l = logs.get(i);
            logHeight.add(height);
            logSeq.add(s);
            logPos.add(i);
            logAddress.add(SqlArrays.bytea(l.address()));
            for (int k = 0; k < 4; k++)
                logTopics
                        .get(k)
                        .add(k < l.topics().size() ? SqlArrays.bytea(l.topics().get(k)) : null);
        }
    }

    Tuple logs() {
        return Tuple.tuple()
                .addValue(SqlArrays.longs(logHeight))
                .addValue(SqlArrays.longs(logSeq))
                .addValue(SqlArrays.ints(logPos))
                .addValue(SqlArrays.bufs(logAddress))
                .addValue(SqlArrays.bufs(logTopics.get(0)))
                .addValue(SqlArrays.bufs(logTopics.get(1)))
                .addValue(SqlArrays.bufs(logTopics.get(2)))
                .addValue(SqlArrays.bufs(logTopics.get(3)));
    }

    /** The tx's category edges, one per involved account and category its messages are in, and their counts. */
    private void addCategories(IndexedBlock.Tx t, long s) {
        EnumSet<TxCategory> cats = null;
        for (String type : t.msgTypes()) {
            TxCategory c = TxCategory.of(type);
            if (c == null) continue;
            if (cats == null) cats = EnumSet.noneOf(TxCategory.class);
            cats.add(c);
        }
        if (cats == null) return;
        for (AccountAddress a : t.accounts().keySet()) {
            Long id = id(a);
            for (TxCategory c : cats) {
                catAccount.add(id);
                catCode.add(c.code);
                catSeq.add(s);
                categoryStats.merge(List.of(id, (long) c.code), 1L, Long::sum);
            }
        }
    }

    Tuple categories() {
        return Tuple.tuple()
                .addValue(SqlArrays.longs(catAccount))
                .addValue(catCode.toArray(new Short[0]))
                .addValue(SqlArrays.longs(catSeq));
    }

    Tuple daily() {
        Integer[] days = dayTxs.keySet().toArray(new Integer[0]);
        Long[] txs = dayTxs.values().toArray(new Long[0]);
        Integer[] activeDays = new Integer[dayAccounts.size()];
        Long[] activeIds = new Long[dayAccounts.size()];
        int i = 0;
        for (List<Long> k : dayAccounts) {
            activeDays[i] = k.get(0).intValue();
            activeIds[i] = k.get(1);
            i++;
        }
        return Tuple.tuple().addValue(days).addValue(txs).addValue(activeDays).addValue(activeIds);
    }

    Tuple categoryStats() {
        int n = categoryStats.size();
        Long[] ids = new Long[n];
        Short[] codes = new Short[n];
        Long[] txs = new Long[n];
        int i = 0;
        for (Map.Entry<List<Long>, Long> e : categoryStats.entrySet()) {
            ids[i] = e.getKey().get(0);
            codes[i] = e.getKey().get(1).shortValue();
            txs[i] = e.getValue();
            i++;
        }
        return Tuple.tuple().addValue(ids).addValue(codes).addValue(txs);
    }

    private void addTransfer(long height, long s, int k, FungibleTransfer f) {
        transferHeight.add(height);
        transferSeq.add(s);
        transferIndex.add(k);
        transferKind.add((short) f.kind().code());
        transferToken.add(SqlArrays.bytea(f.token().bytes()));
        transferFrom.add(SqlArrays.bytea(f.from().bytes()));
        transferTo.add(SqlArrays.bytea(f.to().bytes()));
        transferAmount.add(f.amount().toString());
    }

    private void addEvmTx(IndexedBlock b, IndexedBlock.EvmTx t, long s) {
        evmSeq.add(s);
        evmHeight.add(b.height());
        evmIndex.add(t.index());
        evmHash.add(SqlArrays.bytea(t.hash()));
        evmFrom.add(t.from() == null ? null : id(t.from()));
        evmJson.add(t.json());
        addAccounts(t.accounts(), s, evmAccId, evmAccSeq, evmAccSigner, 2);
        addLogs(b.height(), s, t);
        evmCount++;
    }

    /**
     * A tx's account edges, and its counts per account: {@code stat} is the index of the tx count ({@code 0} Cosmos,
     * {@code 2} EVM), the signer count follows it.
     */
    private void addAccounts(
            Map<AccountAddress, Boolean> accounts,
            long s,
            List<Long> accountIds,
            List<Long> seqs,
            List<Boolean> signers,
            int stat) {
        for (Map.Entry<AccountAddress, Boolean> e : accounts.entrySet()) {
            Long id = id(e.getKey());
            accountIds.add(id);
            seqs.add(s);
            signers.add(e.getValue());
            long[] st = accountStats.computeIfAbsent(id, k -> new long[4]);
            st[stat]++;
            if (e.getValue()) st[stat + 1]++;
        }
    }

    private Long id(AccountAddress a) {
        return resolved(ids.accounts(), a);
    }

    private static <K, V> V resolved(Map<K, V> ids, K value) {
        V id = ids.get(value);
        if (id == null) throw new IllegalStateException("no dictionary id resolved for " + value);
        return id;
    }

    Tuple blocks() {
        int n = blocks.size();
        Long[] h = new Long[n];
        Buffer[] hs = new Buffer[n];
        Long[] ns = new Long[n];
        Buffer[] pa = new Buffer[n];
        String[] pm = new String[n];
        String[] po = new String[n];
        Long[] gu = new Long[n];
        Long[] gw = new Long[n];
        Integer[] tc = new Integer[n];
        Integer[] ec = new Integer[n];
        String[] tf = new String[n];
        for (int i = 0; i < n; i++) {
            IndexedBlock b = blocks.get(i);
            h[i] = b.height();
            hs[i] = SqlArrays.bytea(b.hash());
            ns[i] = b.timeNs();
            pa[i] = SqlArrays.bytea(b.proposerAddress());
            pm[i] = b.proposer().moniker();
            po[i] = b.proposer().operatorAddress();
            gu[i] = b.gasUsed();
            gw[i] = b.gasWanted();
            tc[i] = b.txCount();
            ec[i] = b.evmTxs().size();
            tf[i] = BlockJson.totalFee(b);
        }
        return Tuple.tuple()
                .addValue(h)
                .addValue(hs)
                .addValue(ns)
                .addValue(blockTimes)
                .addValue(pa)
                .addValue(pm)
                .addValue(po)
                .addValue(gu)
                .addValue(gw)
                .addValue(tc)
                .addValue(ec)
                .addValue(tf)
                .addValue(blockJson);
    }

    /**
     * The run's events, in log order: each block's {@code blocks} event (its payload as the bus carries it), then one
     * {@code txs} event per involved account of each of its txs (Cosmos txs; an EVM tx is one of them), keyed by the
     * account's bytes and the tx hash.
     */
    Tuple events(String chainId) {
        int n = blocks.size() + accId.size();
        String[] topic = new String[n];
        Long[] height = new Long[n];
        Buffer[] account = new Buffer[n];
        Buffer[] txHash = new Buffer[n];
        String[] payload = new String[n];
        int i = 0;
        for (IndexedBlock b : blocks) {
            topic[i] = EventStore.BLOCKS;
            height[i] = b.height();
            payload[i] = new io.vertx.core.json.JsonObject()
                    .put("chain_id", chainId)
                    .put("height", b.height())
                    .put("hash", dev.weft.chain.Hex.upper(b.hash()))
                    .put("tx_count", b.txCount())
                    .put("time", dev.weft.chain.model.Rfc3339.nanos(b.timeNs()))
                    .encode();
            i++;
            for (IndexedBlock.Tx t : b.txs()) {
                Buffer hash = SqlArrays.bytea(t.hash());
                for (AccountAddress a : t.accounts().keySet()) {
                    topic[i] = EventStore.TXS;
                    height[i] = b.height();
                    account[i] = SqlArrays.bytea(a.bytes());
                    txHash[i] = hash;
                    i++;
                }
            }
        }
        if (i != n) throw new IllegalStateException(i + " events for " + n + " rows");
        return Tuple.tuple()
                .addValue(chainId)
                .addValue(topic)
                .addValue(height)
                .addValue(account)
                .addValue(txHash)
                .addValue(payload);
    }

    Tuple transfers() {
        return Tuple.tuple()
                .addValue(SqlArrays.longs(transferHeight))
                .addValue(SqlArrays.longs(transferSeq))
                .addValue(SqlArrays.ints(transferIndex))
                .addValue(transferKind.toArray(new Short[0]))
                .addValue(SqlArrays.bufs(transferToken))
                .addValue(SqlArrays.bufs(transferFrom))
                .addValue(SqlArrays.bufs(transferTo))
                .addValue(SqlArrays.strings(transferAmount));
    }

    Tuple accountStats() {
        int n = accountStats.size();
        Long[] ids = new Long[n];
        Long[][] c = new Long[4][n];
        int i = 0;
        for (Map.Entry<Long, long[]> e : accountStats.entrySet()) {
            ids[i] = e.getKey();
            for (int k = 0; k < 4; k++) c[k][i] = e.getValue()[k];
            i++;
        }
        return Tuple.tuple()
                .addValue(ids)
                .addValue(c[0])
                .addValue(c[1])
                .addValue(c[2])
                .addValue(c[3]);
    }
}
