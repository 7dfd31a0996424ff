package dev.weft.route.msgs;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.Hex;
import dev.weft.route.registry.Chain;
import java.util.Locale;

/**
 * Which addresses a chain accepts: bech32 with the chain's prefix on Cosmos chains (20 or 32 bytes), also 0x hex of 20
 * bytes on minievm rollups (the same account), and only 0x hex of 20 bytes on EVM chains.
 */
public final class AddressRules {
    private AddressRules() {}

    /** The account, or null when the string does not fit the chain. */
    public static AccountAddress parse(Chain c, String s) {
        if (s == null) return null;
        String t = s.trim();
        boolean hex = t.startsWith("0x") || t.startsWith("0X");
        try {
            if (hex) return c.hasEvm() && Hex.isHex(t, 20) ? AccountAddress.parse(t, "") : null;
            if (c.isEvmChain() || !t.toLowerCase(Locale.ROOT).startsWith(c.bech32Prefix() + "1")) return null;
            return AccountAddress.parse(t, c.bech32Prefix());
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** What the chain expects in the error message. */
    public static String expected(Chain c) {
        if (c.isEvmChain()) return "a 0x address of 20 bytes";
        if (c.hasEvm()) return "bech32 with prefix \"" + c.bech32Prefix() + "\" or a 0x address of 20 bytes";
        return "bech32 with prefix \"" + c.bech32Prefix() + "\"";
    }

    /** The form messages use on the chain: EIP-55 hex on EVM chains, bech32 elsewhere. */
    public static String display(Chain c, AccountAddress a) {
        return c.isEvmChain() ? a.checksumHex() : a.bech32(c.bech32Prefix());
    }
}
