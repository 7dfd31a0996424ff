package dev.weft.devnet.exec;

import dev.weft.chain.Bech32;
import dev.weft.chain.Hashes;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Module-owned addresses as ibc-go and the packet-forward middleware derive them. */
public final class IbcAddresses {
  private IbcAddresses() {}

  /** {@code authtypes.NewModuleAddress(name)}: the first 20 bytes of SHA-256 of the module name. */
  public static String module(String name, String prefix) {
    return Bech32.encode(prefix, Arrays.copyOf(Hashes.sha256(name.getBytes(StandardCharsets.UTF_8)), 20));
  }

  /** ICS-20's {@code GetEscrowAddress}: SHA-256 of {@code "ics20-1" 0x00 "port/channel"}, first 20 bytes. */
  public static String escrow(String port, String channel, String prefix) {
    byte[] version = "ics20-1".getBytes(StandardCharsets.UTF_8);
    byte[] path = (port + "/" + channel).getBytes(StandardCharsets.UTF_8);
    byte[] pre = new byte[version.length + 1 + path.length];
    System.arraycopy(version, 0, pre, 0, version.length);
    System.arraycopy(path, 0, pre, version.length + 1, path.length);
    return Bech32.encode(prefix, Arrays.copyOf(Hashes.sha256(pre), 20));
  }

  /**
   * The packet-forward middleware's intermediate receiver of a forwarded packet: {@code address.Hash(
   * "packetfowardmiddleware", "channel/originalSender")} (SHA-256 of SHA-256 of the module name, then the key),
   * first 20 bytes.
   */
  public static String pfmReceiver(String channel, String originalSender, String prefix) {
    byte[] typ = Hashes.sha256("packetfowardmiddleware".getBytes(StandardCharsets.UTF_8));
    byte[] key = (channel + "/" + originalSender).getBytes(StandardCharsets.UTF_8);
    byte[] in = new byte[typ.length + key.length];
    System.arraycopy(typ, 0, in, 0, typ.length);
    System.arraycopy(key, 0, in, typ.length, key.length);
    return Bech32.encode(prefix, Arrays.copyOf(Hashes.sha256(in), 20));
  }
}
