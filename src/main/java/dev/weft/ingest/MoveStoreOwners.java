package dev.weft.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.chain.AccountAddress;
import dev.weft.chain.MoveStores;
import dev.weft.chain.client.CosmosRestClient;
import dev.weft.chain.client.NodeException;
import dev.weft.chain.model.BlockResults;
import dev.weft.chain.model.NodeJson;
import dev.weft.store.Lru;
import dev.weft.store.MoveStoreOwnerStore;
import io.vertx.core.Future;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The owners of the Move fungible stores a block's deposits and withdrawals name without their owner event (chains of
 * movevm before the owner events, or secondary stores), as rollytics' {@code fa_store} table keeps them: the
 * {@code 0x1::primary_fungible_store::PrimaryStoreCreatedEvent}s of indexed blocks, and for a store created before the
 * indexed history its object's {@code 0x1::object::ObjectCore} owner read from the chain at the height
 * ({@code /initia/move/v1/accounts/{store}/resources/by_struct_tag}), each remembered in {@code move_fa_store} and a
 * bounded cache. A store the node does not know (4xx, 501) stays unattributed; any other node failure fetches the
 * height again. Read while the block is fetched, never inside its database transaction (a pair is a fact of the chain:
 * writing it before the block commits is harmless).
 */
final class MoveStoreOwners {
    private static final Logger LOG = LoggerFactory.getLogger(MoveStoreOwners.class);
    private static final String OBJECT_CORE = "0x1::object::ObjectCore";

    private final CosmosRestClient rest;
    private final MoveStoreOwnerStore table;
    private final String prefix;
    private final Lru<AccountAddress, AccountAddress> cache = new Lru<>(200_000);

    MoveStoreOwners(CosmosRestClient rest, MoveStoreOwnerStore table, String prefix) {
        this.rest = rest;
        this.table = table;
        this.prefix = prefix;
    }

    /** The owners (32-byte store → 32-byte owner) of the stores the block's movements need. */
    Future<Map<AccountAddress, AccountAddress>> resolve(long height, BlockResults results) {
        Map<AccountAddress, AccountAddress> created = new LinkedHashMap<>();
        Set<AccountAddress> unpaired = new LinkedHashSet<>();
        for (BlockResults.TxResult r : results.txs())
            FungibleTransfers.storeOwnersNeeded(r.events(), prefix, created, unpaired);
        Map<AccountAddress, AccountAddress> out = new LinkedHashMap<>(created);
        List<AccountAddress> unknown = new ArrayList<>();
        for (AccountAddress s : unpaired) {
            AccountAddress o = cache.get(s);
            if (o != null) out.put(s, o);
            else unknown.add(s);
        }
        Future<Void> saved = table.add(created).onSuccess(v -> cache.putAll(created));
        if (unknown.isEmpty()) return saved.map(out);
        return saved.compose(v -> table.owners(unknown)).compose(stored -> {
            cache.putAll(stored);
            out.putAll(stored);
            List<Future<?>> reads = new ArrayList<>();
            Map<AccountAddress, AccountAddress> read = new LinkedHashMap<>();
            for (AccountAddress s : unknown) {
                if (stored.containsKey(s)) continue;
                reads.add(objectOwner(s, height).onSuccess(o -> {
                    if (o != null) read.put(s, o);
                }));
            }
            return Future.all(reads).compose(x -> {
                out.putAll(read);
                return table.add(read).onSuccess(y -> cache.putAll(read)).map(out);
            });
        });
    }

    /** The owner of a Move object at a height; null when the node has no such object (or does not serve x/move). */
    private Future<AccountAddress> objectOwner(AccountAddress store, long height) {
        String path = "/initia/move/v1/accounts/" + store.hex() + "/resources/by_struct_tag?struct_tag=" + OBJECT_CORE;
        return rest.getAtHeight(path, height, root -> {
                    JsonNode r = root.path("resource").path("move_resource");
                    JsonNode parsed = r.isTextual() ? NodeJson.parse(r.asText().getBytes(StandardCharsets.UTF_8)) : r;
                    String owner = parsed.path("data").path("owner").asText("");
                    return owner.isEmpty()
                            ? null
                            : AccountAddress.of(MoveStores.leftPad32(
                                    AccountAddress.parse(owner, prefix).bytes()));
                })
                .recover(e -> {
                    if (e instanceof NodeException ne && (!ne.retryable() || ne.status() == 501)) {
                        LOG.info(
                                "Move store {} has no ObjectCore at height {} ({}): its movements without an owner event are not counted",
                                store.hex(),
                                height,
                                e.getMessage());
                        return Future.succeededFuture(null);
                    }
                    return Future.failedFuture(e);
                });
    }
}
