package dev.weft.devnet.gen;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * x/bank balances that submitted txs change (live mode): genesis grants plus every {@code coin_spent}/{@code
 * coin_received} of the txs the chain executed (the fee too, which a failed tx also pays); each signer's {@code acc_seq}
 * and each address that receives coins go to the chain's {@link Accounts}. Generated txs are not folded in: their
 * ERC-20 ledger answers for them.
 */
public final class SubmittedBalances {
    private final Map<String, Map<String, BigInteger>> coins = new ConcurrentHashMap<>();
    private final Accounts accounts;

    SubmittedBalances(Accounts accounts) {
        this.accounts = accounts;
    }

    /** A genesis balance of {@code account}. */
    public void grant(String account, String denom, BigInteger amount) {
        add(account, denom, amount);
    }

    void apply(List<Tx> txs) {
        for (Tx tx : txs) {
            for (Event e : tx.events) {
                switch (e.type()) {
                    case "coin_spent" -> move(e.value("spender"), e.value("amount"), false);
                    case "coin_received" -> move(e.value("receiver"), e.value("amount"), true);
                    case "tx" -> {
                        String accSeq = e.value("acc_seq");
                        int slash = accSeq == null ? -1 : accSeq.lastIndexOf('/');
                        if (slash > 0) {
                            byte[] signer = bytes(accSeq.substring(0, slash));
                            if (signer != null) accounts.delivered(signer, Long.parseLong(accSeq.substring(slash + 1)));
                        }
                    }
                    default -> {}
                }
            }
        }
    }

    /** The non-zero balances of {@code account}, by denom. */
    public Map<String, BigInteger> of(String account) {
        Map<String, BigInteger> m = coins.get(account);
        return m == null ? Map.of() : new TreeMap<>(m);
    }

    private void move(String account, String amounts, boolean credit) {
        if (account == null || amounts == null || amounts.isEmpty()) return;
        for (String coin : amounts.split(",")) {
            int i = 0;
            while (i < coin.length() && Character.isDigit(coin.charAt(i))) i++;
            if (i == 0 || i == coin.length()) continue;
            BigInteger amount = new BigInteger(coin.substring(0, i));
            add(account, coin.substring(i), credit ? amount : amount.negate());
        }
    }

    private void add(String account, String denom, BigInteger amount) {
        account(account);
        coins.computeIfAbsent(account, k -> new ConcurrentHashMap<>()).merge(denom, amount, BigInteger::add);
        coins.get(account).remove(denom, BigInteger.ZERO);
    }

    private void account(String account) {
        byte[] a = bytes(account);
        if (a != null) accounts.create(a);
    }

    private static byte[] bytes(String bech32) {
        try {
            return dev.weft.chain.Bech32.decode(bech32).data();
        } catch (RuntimeException e) {
            return null;
        }
    }
}
