package dev.weft.richlist;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.Hex;
import dev.weft.chain.client.CosmosRestClient;
import dev.weft.chain.client.NodeException;
import io.vertx.core.Future;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Maps the bank denoms the indexed txs move to their ERC-20 contracts, once each, through minievm's
 * {@code /minievm/evm/v1/contracts/by_denom}; the mapping is stored with the balances so that requests never ask a
 * node. A denom the node does not know (a 4xx) is not asked again; a node failure leaves it for a later run.
 */
public final class DenomResolver {
    private static final Logger LOG = LoggerFactory.getLogger(DenomResolver.class);

    private final CosmosRestClient rest;
    /** Committed mappings. */
    private final Map<String, AccountAddress> stored = new ConcurrentHashMap<>();
    /** Resolved, waiting for their commit. */
    private final Map<String, AccountAddress> pending = new ConcurrentHashMap<>();

    private final Set<String> unknown = ConcurrentHashMap.newKeySet();

    public DenomResolver(CosmosRestClient rest) {
        this.rest = rest;
    }

    public void stored(Map<String, AccountAddress> committed) {
        stored.putAll(committed);
        committed.keySet().forEach(pending::remove);
    }

    /** The mappings not stored yet among {@code denoms} (and earlier ones still uncommitted); never fails. */
    public Future<Map<String, AccountAddress>> resolve(Set<String> denoms) {
        List<Future<Void>> asks = new ArrayList<>();
        Set<String> asked = new HashSet<>();
        for (String d : denoms) {
            if (stored.containsKey(d) || pending.containsKey(d) || unknown.contains(d) || !asked.add(d)) continue;
            asks.add(rest.get(
                            "/minievm/evm/v1/contracts/by_denom?denom=" + URLEncoder.encode(d, StandardCharsets.UTF_8),
                            root -> root.path("address").asText(""))
                    .map(addr -> {
                        if (Hex.isHex(addr, 20)) pending.put(d, AccountAddress.of(Hex.decode(addr)));
                        else unknown.add(d);
                        return (Void) null;
                    })
                    .recover(e -> {
                        if (e instanceof NodeException ne && !ne.retryable()) unknown.add(d);
                        else LOG.warn("denom {} not mapped to its ERC-20 yet: {}", d, e.getMessage());
                        return Future.succeededFuture();
                    }));
        }
        return Future.join(asks).transform(x -> Future.succeededFuture(new LinkedHashMap<>(pending)));
    }
}
