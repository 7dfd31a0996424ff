package dev.weft.devnet.gen;

import dev.weft.chain.Hashes;
import dev.weft.chain.Hex;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;

/** The little Solidity ABI the devnet speaks: selectors, 32-byte words, strings and Error(string) revert data. */
public final class Abi {
    public static final String TRANSFER_TOPIC = "0x" + Hex.lower(Hashes.keccak256("Transfer(address,address,uint256)"));
    public static final String ZERO_TOPIC = "0x" + "0".repeat(64);
    public static final String ZERO_ADDRESS = "0x" + "0".repeat(40);

    public static final String TRANSFER = selector("transfer(address,uint256)");
    public static final String TRANSFER_FROM = selector("transferFrom(address,address,uint256)");
    public static final String BALANCE_OF = selector("balanceOf(address)");
    public static final String NAME = selector("name()");
    public static final String SYMBOL = selector("symbol()");
    public static final String DECIMALS = selector("decimals()");
    public static final String TOTAL_SUPPLY = selector("totalSupply()");
    public static final String TOKEN_URI = selector("tokenURI(uint256)");
    public static final String OWNER_OF = selector("ownerOf(uint256)");
    public static final String MINT = selector("mint(address)");
    public static final String BURN = selector("burn(uint256)");
    public static final String DO_EVERYTHING = selector("doEverything(address,uint256)");
    public static final String SWAP_EXACT_IN = selector("swapExactIn(address,uint256,uint256)");
    public static final String PING = selector("ping()");
    public static final String FEE = selector("fee(uint256)");
    public static final String CHECK_INVARIANT = selector("checkInvariant()");
    /** {@code ERC721NonexistentToken(uint256)} (OpenZeppelin 5). */
    public static final String NONEXISTENT_TOKEN = selector("ERC721NonexistentToken(uint256)");

    private static final String ERROR_STRING = selector("Error(string)");

    private Abi() {}

    /** {@code 0x} + the first 4 bytes of Keccak-256 of the signature. */
    public static String selector(String signature) {
        return "0x" + Hex.lower(Hashes.keccak256(signature)).substring(0, 8);
    }

    /** A 32-byte word (64 hex chars, no 0x) of an unsigned integer. */
    public static String word(BigInteger v) {
        if (v.bitLength() < 64) return word(v.longValue());
        String h = v.toString(16);
        return "0".repeat(64 - h.length()) + h;
    }

    public static String word(long v) {
        char[] c = new char[64];
        java.util.Arrays.fill(c, 0, 48, '0');
        for (int i = 63; i >= 48; i--, v >>>= 4) c[i] = HEX[(int) (v & 0xf)];
        return new String(c);
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /** A 32-byte word of an address given as {@code 0x} + 40 hex. */
    public static String word(String address) {
        return "000000000000000000000000" + address.substring(2);
    }

    /** ABI encoding of a single dynamic {@code string} return value (offset, length, padded bytes), no 0x. */
    public static String string(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        StringBuilder sb = new StringBuilder(word(32)).append(word(b.length));
        String h = Hex.lower(b);
        sb.append(h);
        int pad = (64 - h.length() % 64) % 64;
        sb.append("0".repeat(pad));
        return sb.toString();
    }

    /** Revert data of {@code revert("reason")}. */
    public static String errorString(String reason) {
        return ERROR_STRING + string(reason);
    }

    /** Hex quantity as JSON-RPC prints it: no leading zeros, {@code 0x0} for zero. */
    public static String quantity(long v) {
        return "0x" + Long.toHexString(v);
    }

    public static String quantity(BigInteger v) {
        return "0x" + v.toString(16);
    }
}
