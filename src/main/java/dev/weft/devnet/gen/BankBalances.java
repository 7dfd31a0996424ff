package dev.weft.devnet.gen;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The x/bank balances of an account as the REST API and {@code abci_query} serve them. On the generated minievm chain
 * every bank denom is an ERC-20, so a balance is the token's ledger balance at the head; a quiet chain keeps no
 * balances (its sends are only events), so its accounts hold nothing. Zero balances are not stored, as in x/bank.
 */
public final class BankBalances {
  /** One coin. */
  public record Coin(String denom, BigInteger amount) {}

  private BankBalances() {}

  /** The non-zero balances of a 20-byte address at height h, sorted by denom (x/bank's store order). */
  public static List<Coin> of(DevnetChain chain, byte[] address, long h) {
    List<Coin> out = new ArrayList<>();
    if (!chain.spec().generated() || h < 1) return out;
    for (Token t : chain.genesis().tokens()) {
      BigInteger amount = chain.balanceOf(t, address, h);
      if (amount.signum() > 0) out.add(new Coin(t.bankDenom(), amount));
    }
    out.sort(Comparator.comparing(Coin::denom));
    return out;
  }

  /** The balance of one denom (zero when none). */
  public static Coin of(DevnetChain chain, byte[] address, long h, String denom) {
    for (Coin c : of(chain, address, h)) if (c.denom().equals(denom)) return c;
    return new Coin(denom, BigInteger.ZERO);
  }
}
