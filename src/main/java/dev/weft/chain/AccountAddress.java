package dev.weft.chain;

import java.util.Arrays;
import java.util.Locale;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.math.ec.ECPoint;

/**
 * An account address: 20 bytes (EOAs, EVM contracts) or 32 bytes (Move objects, Wasm contracts). On Initia the same
 * bytes are shown as bech32 ({@code init1…}) or as EVM hex ({@code 0x…}).
 */
public final class AccountAddress {
    private static final X9ECParameters SECP256K1 = CustomNamedCurves.getByName("secp256k1");

    private final byte[] bytes;
    /** Addresses are map keys all through ingestion (accounts of a tx, ids by address): hashed once. */
    private final int hash;

    private AccountAddress(byte[] bytes) {
        this.bytes = bytes;
        this.hash = Arrays.hashCode(bytes);
    }

    public static AccountAddress of(byte[] bytes) {
        if (bytes.length != 20 && bytes.length != 32)
            throw new IllegalArgumentException("an address has 20 or 32 bytes, not " + bytes.length);
        return new AccountAddress(bytes.clone());
    }

    /**
     * Parses bech32 with the given prefix, or hex of 20 or 32 bytes (optional 0x, either case; shorter hex such as
     * Move's {@code 0x1} is left-padded to 32 bytes). Throws IllegalArgumentException on anything else.
     */
    public static AccountAddress parse(String s, String bech32Prefix) {
        if (s == null || s.isBlank()) throw new IllegalArgumentException("empty address");
        String t = s.trim();
        if (t.toLowerCase(Locale.ROOT).startsWith(bech32Prefix + "1")) {
            Bech32.Decoded d = Bech32.decode(t);
            if (!d.prefix().equals(bech32Prefix))
                throw new IllegalArgumentException("wrong bech32 prefix " + d.prefix());
            return of(d.data());
        }
        String h = Hex.strip(t);
        if (h.isEmpty() || h.length() > 64 || !h.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            throw new IllegalArgumentException("not a bech32 or hex address: " + s);
        }
        if (!t.startsWith("0x") && !t.startsWith("0X") && h.length() != 40 && h.length() != 64) {
            throw new IllegalArgumentException("not a bech32 or hex address: " + s);
        }
        byte[] raw = Hex.decode(h);
        if (raw.length == 20 || raw.length == 32) return new AccountAddress(raw);
        byte[] padded = new byte[raw.length < 20 && h.length() == 40 ? 20 : 32];
        System.arraycopy(raw, 0, padded, padded.length - raw.length, raw.length);
        return new AccountAddress(padded);
    }

    /** Whether {@code s} parses as an address with that prefix. */
    public static boolean isValid(String s, String bech32Prefix) {
        try {
            parse(s, bech32Prefix);
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Address of an {@code ethsecp256k1} public key (Initia, EVM): the last 20 bytes of Keccak-256 of the uncompressed key. */
    public static AccountAddress fromEthSecp256k1(byte[] pubKey) {
        ECPoint p = SECP256K1.getCurve().decodePoint(pubKey);
        byte[] uncompressed = p.getEncoded(false);
        byte[] h = Hashes.keccak256(Arrays.copyOfRange(uncompressed, 1, uncompressed.length));
        return new AccountAddress(Arrays.copyOfRange(h, 12, 32));
    }

    /** Address of a Cosmos {@code secp256k1} public key: RIPEMD-160 of SHA-256 of the compressed key. */
    public static AccountAddress fromSecp256k1(byte[] pubKey) {
        ECPoint p = SECP256K1.getCurve().decodePoint(pubKey);
        return new AccountAddress(Hashes.ripemd160(Hashes.sha256(p.getEncoded(true))));
    }

    /** The compressed secp256k1 public key of a private key (the devnet derives its accounts this way). */
    public static byte[] compressedPublicKey(java.math.BigInteger privateKey) {
        return SECP256K1.getG().multiply(privateKey).normalize().getEncoded(true);
    }

    public byte[] bytes() {
        return bytes.clone();
    }

    public int length() {
        return bytes.length;
    }

    public String bech32(String prefix) {
        return Bech32.encode(prefix, bytes);
    }

    /** {@code 0x} + lower-case hex. */
    public String hex() {
        return Hex.prefixed(bytes);
    }

    /** EIP-55 mixed-case checksum form of a 20-byte address. */
    public String checksumHex() {
        String lower = Hex.lower(bytes);
        String hash = Hex.lower(Hashes.keccak256(lower));
        StringBuilder sb = new StringBuilder("0x");
        for (int i = 0; i < lower.length(); i++) {
            char c = lower.charAt(i);
            sb.append(Character.digit(hash.charAt(i), 16) >= 8 ? Character.toUpperCase(c) : c);
        }
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AccountAddress a && hash == a.hash && Arrays.equals(bytes, a.bytes);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        return hex();
    }
}
