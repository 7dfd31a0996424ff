package dev.weft.richlist;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.client.EthCalls;
import dev.weft.chain.client.EvmRpcClient;
import dev.weft.chain.client.NodeException;
import dev.weft.store.RichListStore.Pair;
import io.vertx.core.Future;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ERC-20 balances at a height through batched {@code eth_call balanceOf} (the bootstrap snapshot and the repair of a
 * token). A call that reverts reads as zero (the contract has no such balance to give); any other error fails the
 * whole read, so nothing is written from a partial answer.
 */
public final class BalanceReader {
    private static final Logger LOG = LoggerFactory.getLogger(BalanceReader.class);

    private final EvmRpcClient evm;
    private final int batch;
    private final int concurrency;

    public BalanceReader(EvmRpcClient evm, int batch, int concurrency) {
        this.evm = evm;
        this.batch = batch;
        this.concurrency = concurrency;
    }

    /** The balance of every (token, account) asked, at the end of {@code height}. */
    public Future<Map<Pair, BigInteger>> read(Map<AccountAddress, Set<AccountAddress>> accountsByToken, long height) {
        List<Pair> pairs = new ArrayList<>();
        List<EvmRpcClient.Request> calls = new ArrayList<>();
        accountsByToken.forEach((token, accounts) -> {
            for (AccountAddress a : accounts) {
                if (a.length() != 20) continue;
                pairs.add(new Pair(token, a));
                calls.add(EthCalls.call(token, EthCalls.balanceOf(a), height));
            }
        });
        return EthCalls.batched(evm, calls, batch, concurrency).map(results -> {
            Map<Pair, BigInteger> out = new LinkedHashMap<>();
            int reverted = 0;
            for (int i = 0; i < results.size(); i++) {
                EvmRpcClient.Result r = results.get(i);
                BigInteger v;
                if (r.ok()) {
                    v = EthCalls.decodeUint(r.result());
                    if (v == null) throw NodeException.invalid("balanceOf", "not a uint256: " + r.result());
                } else if (EthCalls.reverted(r.error())) {
                    v = BigInteger.ZERO;
                    reverted++;
                } else {
                    throw NodeException.rpc(
                            "balanceOf at " + height,
                            r.error().path("code").asInt(),
                            r.error().path("message").asText(""));
                }
                out.put(pairs.get(i), v);
            }
            if (reverted > 0) LOG.warn("{} balanceOf calls at height {} reverted (read as 0)", reverted, height);
            return out;
        });
    }
}
