package dev.weft.devnet.tx;

import dev.weft.chain.Hex;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The auth state of one devnet chain: each account's number and next sequence, what
 * {@code /cosmos/auth/v1beta1/accounts/{address}} serves and CheckTx checks signatures against. A genesis account
 * keeps its genesis number; any other well-formed address is an account from its first look-up or tx on, numbered
 * after the genesis ones (the devnet funds any address, so any key may sign). Each accepted tx increments the
 * sequence of every signer, as the SDK's {@code IncrementSequenceDecorator} does in CheckTx.
 */
public final class Accounts {
  /** First number of an account created after genesis (above every generated chain's genesis numbers). */
  static final long FIRST_LATE_NUMBER = 1_000_000;

  /** An account's number and next sequence. */
  public record Account(long number, long sequence) {}

  private final Function<byte[], Long> genesisNumber;
  private final Map<String, long[]> accounts = new HashMap<>();
  private long nextNumber = FIRST_LATE_NUMBER;

  /** @param genesisNumber the genesis account number of an address, null when genesis has no such account */
  public Accounts(Function<byte[], Long> genesisNumber) {
    this.genesisNumber = genesisNumber;
  }

  /** The account at that 20- or 32-byte address (created on first look-up). */
  public synchronized Account get(byte[] address) {
    long[] a = entry(address);
    return new Account(a[0], a[1]);
  }

  /** Increments the sequence of an account after an accepted tx. */
  public synchronized void increment(byte[] address) {
    entry(address)[1]++;
  }

  private long[] entry(byte[] address) {
    return accounts.computeIfAbsent(Hex.lower(address), k -> {
      Long n = genesisNumber.apply(address);
      return new long[] {n != null ? n : nextNumber++, 0};
    });
  }
}
