package dev.weft.devnet.gen;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * The x/bank balances of an account as the REST API and {@code abci_query} serve them. On the generated minievm chain
 * every bank denom is an ERC-20, so a balance is the token's ledger balance at the head; on every chain the coins
 * submitted txs moved and genesis grants ({@link SubmittedBalances}, as at the head) are added. Zero balances are not
 * stored, as in x/bank.
 */
public final class BankBalances {
    /** One coin. */
    public record Coin(String denom, BigInteger amount) {}

    /** One page: its coins, the next page's key (the next denom's bytes; null on the last page), the total (0 when not counted). */
    public record Page(List<Coin> coins, byte[] nextKey, long total) {}

    public static final int DEFAULT_LIMIT = 100;

    private BankBalances() {}

    /**
     * A page of balances as the SDK's collections pagination cuts it: by {@code key} (the denom to start at) or
     * {@code offset}, {@code limit} (0 = 100, which also counts the total, as {@code initPageRequestDefaults} does).
     */
    public static Page page(List<Coin> all, byte[] key, long offset, long limit, boolean countTotal, boolean reverse) {
        if (limit == 0) {
            limit = DEFAULT_LIMIT;
            countTotal = true;
        }
        List<Coin> ordered = new ArrayList<>(all);
        if (reverse) java.util.Collections.reverse(ordered);
        int start = (int) Math.min(offset, ordered.size());
        if (key != null && key.length > 0) {
            String from = new String(key, java.nio.charset.StandardCharsets.UTF_8);
            start = 0;
            while (start < ordered.size()
                    && (reverse ? -1 : 1) * ordered.get(start).denom().compareTo(from) < 0) start++;
        }
        int end = (int) Math.min(ordered.size(), start + limit);
        byte[] next = end < ordered.size()
                ? ordered.get(end).denom().getBytes(java.nio.charset.StandardCharsets.UTF_8)
                : null;
        return new Page(List.copyOf(ordered.subList(start, end)), next, countTotal ? all.size() : 0);
    }

    /** The non-zero balances of a 20-byte address at height h, sorted by denom (x/bank's store order). */
    public static List<Coin> of(DevnetChain chain, byte[] address, long h) {
        List<Coin> out = new ArrayList<>();
        if (h < 1) return out;
        java.util.Map<String, BigInteger> amounts = new java.util.TreeMap<>(chain.submittedBalances()
                .of(dev.weft.chain.AccountAddress.of(address)
                        .bech32(chain.spec().bech32Prefix())));
        if (chain.spec().generated()) {
            for (Token t : chain.genesis().tokens())
                amounts.merge(t.bankDenom(), chain.balanceOf(t, address, h), BigInteger::add);
        }
        amounts.forEach((denom, amount) -> {
            if (amount.signum() > 0) out.add(new Coin(denom, amount));
        });
        return out;
    }

    /** The balance of one denom (zero when none). */
    public static Coin of(DevnetChain chain, byte[] address, long h, String denom) {
        for (Coin c : of(chain, address, h)) if (c.denom().equals(denom)) return c;
        return new Coin(denom, BigInteger.ZERO);
    }
}
