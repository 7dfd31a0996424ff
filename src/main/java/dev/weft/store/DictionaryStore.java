package dev.weft.store;

import dev.weft.chain.AccountAddress;
import dev.weft.model.ingest.IndexedBlock;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * The ids of the dictionaries ingestion's rows refer to (accounts by address, message types by name), resolved before
 * a run is prepared so the run's rows carry ids instead of joining the dictionaries by value. A value the dictionary
 * does not hold yet is added by a statement of its own, committed whatever becomes of the run that needs it (a value
 * without rows is harmless, and that run is retried until it commits); an id never changes once committed, so ids are
 * cached by value.
 */
public final class DictionaryStore {
    /**
     * Adds the values not in the dictionary yet and answers the id of every value given: the inserted ones from the
     * insert, the others from the statement's snapshot (which does not see its own insert, so none comes twice). A value
     * another writer inserted after that snapshot is in neither: {@link #resolve} asks again for it.
     */
    private static final String ACCOUNT_IDS = """
      WITH v AS (SELECT DISTINCT address FROM unnest($1::bytea[]) AS u(address)),
      added AS (INSERT INTO account (address) SELECT address FROM v ORDER BY address ON CONFLICT (address) DO NOTHING RETURNING id, address)
      SELECT id, address FROM added UNION ALL SELECT a.id, a.address FROM account a JOIN v ON v.address = a.address""";

    private static final String MSG_TYPE_IDS = """
      WITH v AS (SELECT DISTINCT name FROM unnest($1::text[]) AS u(name)),
      added AS (INSERT INTO msg_type (name) SELECT name FROM v ORDER BY name ON CONFLICT (name) DO NOTHING RETURNING id, name)
      SELECT id, name FROM added UNION ALL SELECT m.id, m.name FROM msg_type m JOIN v ON v.name = m.name""";

    /** The ids of a run's accounts (signers included) and message types. */
    public record Ids(Map<AccountAddress, Long> accounts, Map<String, Integer> msgTypes) {}

    /**
     * One dictionary: its add-and-read statement, its cache, and how a value goes to the statement ({@code wire}, in an
     * array of {@code array}) and comes back from a row ({@code value}, {@code id}).
     */
    private record Dictionary<K, V, W>(
            String sql,
            Lru<K, V> cache,
            Function<K, W> wire,
            IntFunction<W[]> array,
            Function<Row, K> value,
            Function<Row, V> id) {}

    private final Pool pool;
    private final Dictionary<AccountAddress, Long, Buffer> accountIds;
    private final Dictionary<String, Integer, String> msgTypeIds = new Dictionary<>(
            MSG_TYPE_IDS, new Lru<>(10_000), v -> v, String[]::new, r -> r.getString(1), r -> r.getInteger(0));

    public DictionaryStore(Pool pool, int accountCacheSize) {
        this.pool = pool;
        this.accountIds = new Dictionary<>(
                ACCOUNT_IDS,
                new Lru<>(accountCacheSize),
                v -> SqlArrays.bytea(v.bytes()),
                Buffer[]::new,
                r -> AccountAddress.of(r.getBuffer(1).getBytes()),
                r -> r.getLong(0));
    }

    /** The ids of every account, signer and message type of a run: from the cache, else from the database. */
    public Future<Ids> resolve(List<IndexedBlock> run) {
        Map<AccountAddress, Long> accounts = new HashMap<>();
        Set<AccountAddress> unknownAccounts = new LinkedHashSet<>();
        Map<String, Integer> types = new HashMap<>();
        Set<String> unknownTypes = new LinkedHashSet<>();
        for (IndexedBlock b : run) lookUp(b, accounts, unknownAccounts, types, unknownTypes);
        return Future.all(
                        add(accountIds, new ArrayList<>(unknownAccounts), accounts, 1),
                        add(msgTypeIds, new ArrayList<>(unknownTypes), types, 1))
                .map(x -> new Ids(accounts, types));
    }

    // a block's values by a method of their own: called once per block, the JIT compiles it as a small unit (the loop
    // over a whole run, called once per run, was compiled four times on stack replacement)
    private void lookUp(
            IndexedBlock b,
            Map<AccountAddress, Long> accounts,
            Set<AccountAddress> unknownAccounts,
            Map<String, Integer> types,
            Set<String> unknownTypes) {
        for (IndexedBlock.Tx t : b.txs()) {
            lookUp(t.signer(), accountIds, accounts, unknownAccounts);
            for (AccountAddress a : t.accounts().keySet()) lookUp(a, accountIds, accounts, unknownAccounts);
            for (String type : t.msgTypes()) lookUp(type, msgTypeIds, types, unknownTypes);
        }
        for (IndexedBlock.EvmTx t : b.evmTxs()) {
            lookUp(t.from(), accountIds, accounts, unknownAccounts);
            for (AccountAddress a : t.accounts().keySet()) lookUp(a, accountIds, accounts, unknownAccounts);
        }
    }

    private static <K, V> void lookUp(K value, Dictionary<K, V, ?> d, Map<K, V> ids, Set<K> unknown) {
        if (value == null || ids.containsKey(value)) return;
        V id = d.cache().get(value);
        if (id != null) ids.put(value, id);
        else unknown.add(value);
    }

    private <K, V, W> Future<Void> add(Dictionary<K, V, W> d, List<K> unknown, Map<K, V> ids, int attempt) {
        if (unknown.isEmpty()) return Future.succeededFuture();
        W[] values = d.array().apply(unknown.size());
        for (int i = 0; i < values.length; i++) values[i] = d.wire().apply(unknown.get(i));
        return pool.preparedQuery(d.sql())
                .execute(Tuple.tuple().addValue(values))
                .compose(rows -> {
                    Map<K, V> found = new HashMap<>();
                    for (Row r : rows) found.put(d.value().apply(r), d.id().apply(r));
                    d.cache().putAll(found);
                    ids.putAll(found);
                    List<K> missing = new ArrayList<>();
                    for (K v : unknown) if (!found.containsKey(v)) missing.add(v);
                    if (missing.isEmpty()) return Future.succeededFuture();
                    // inserted by another writer after this statement's snapshot: the next statement sees them
                    if (attempt >= 3)
                        return Future.failedFuture(
                                new IllegalStateException(missing.size() + " dictionary ids not resolved"));
                    return add(d, missing, ids, attempt + 1);
                });
    }
}
