package dev.weft.devnet.gen;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * x/bank balances and x/auth sequences that submitted txs change (live mode): genesis grants plus every
 * {@code coin_spent}/{@code coin_received} of the txs the chain executed (the fee too, which a failed tx also pays),
 * and each signer's next sequence from the ante handler's {@code acc_seq}. Generated txs are not folded in: their
 * ERC-20 ledger answers for them.
 */
public final class SubmittedBalances {
  private final Map<String, Map<String, BigInteger>> coins = new ConcurrentHashMap<>();
  private final Map<String, Long> sequences = new ConcurrentHashMap<>();
  private final Map<String, Long> accountNumbers = new ConcurrentHashMap<>();
  private final long firstAccountNumber;

  SubmittedBalances(long firstAccountNumber) {
    this.firstAccountNumber = firstAccountNumber;
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
              String account = accSeq.substring(0, slash);
              account(account);
              sequences.merge(account, Long.parseLong(accSeq.substring(slash + 1)) + 1, Math::max);
            }
          }
          default -> { }
        }
      }
    }
  }

  /** The non-zero balances of {@code account}, by denom. */
  public Map<String, BigInteger> of(String account) {
    Map<String, BigInteger> m = coins.get(account);
    return m == null ? Map.of() : new TreeMap<>(m);
  }

  /** Whether the chain has an account for this address (granted, received or signed). */
  public boolean known(String account) {
    return accountNumbers.containsKey(account);
  }

  /** The account number given to {@code account} when it first appeared. */
  public long accountNumber(String account) {
    return accountNumbers.getOrDefault(account, 0L);
  }

  /** The sequence the account's next tx must carry. */
  public long sequence(String account) {
    return sequences.getOrDefault(account, 0L);
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
    synchronized (accountNumbers) {
      accountNumbers.computeIfAbsent(account, k -> firstAccountNumber + accountNumbers.size());
    }
  }
}
