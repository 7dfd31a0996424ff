package dev.weft.testsupport;

import dev.weft.chain.AccountAddress;

import java.util.Arrays;

/**
 * The accounts multi-chain devnet tests send between: bech32 {@code init} addresses of one repeated byte, so every
 * chain of the devnet accepts them. Tests configure the relayer with {@link #NEVER_RELAYED} as a timeout receiver and
 * {@link #REFUSES} as an error receiver.
 */
public final class DevnetAccounts {
  private DevnetAccounts() {}

  public static final String ALICE = addr(0x11);
  public static final String BOB = addr(0x22);
  public static final String CAROL = addr(0x33);
  public static final String NEVER_RELAYED = addr(0x44);
  public static final String REFUSES = addr(0x55);

  /** The 20-byte account of byte {@code b} repeated, in bech32 with prefix {@code init}. */
  public static String addr(int b) {
    byte[] a = new byte[20];
    Arrays.fill(a, (byte) b);
    return AccountAddress.of(a).bech32("init");
  }
}
