package dev.weft.devnet.gen;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.Hex;

/**
 * An address of the simulated chain (an account with or without a key, a module account or a contract) with every
 * rendering of it precomputed: the renderers only concatenate strings.
 */
public final class Actor {
    private final int id;
    private final byte[] address;
    private final byte[] pubKey;
    private final long accountNumber;
    private final String hex;
    private final String checksum;
    private final String bech32;
    private final String topic;

    Actor(int id, byte[] address, byte[] pubKey, long accountNumber, String bech32Prefix) {
        this.id = id;
        this.address = address;
        this.pubKey = pubKey;
        this.accountNumber = accountNumber;
        AccountAddress a = AccountAddress.of(address);
        this.hex = a.hex();
        this.checksum = a.checksumHex();
        this.bech32 = a.bech32(bech32Prefix);
        this.topic = "0x000000000000000000000000" + Hex.lower(address);
    }

    /** An account outside the generated population (a bot of the devnet): no ledger entry (id -1), no key. */
    public static Actor external(byte[] address, String bech32Prefix) {
        return new Actor(-1, address, null, 0, bech32Prefix);
    }

    /** Dense id: the ledger's array index. */
    public int id() {
        return id;
    }

    public byte[] address() {
        return address;
    }

    /** Compressed ethsecp256k1 public key; null for addresses without a key. */
    public byte[] pubKey() {
        return pubKey;
    }

    public long accountNumber() {
        return accountNumber;
    }

    /** {@code 0x} + lower-case hex (EVM JSON-RPC). */
    public String hex() {
        return hex;
    }

    /** EIP-55 form (Cosmos-side EVM events and MsgCall JSON, as minievm prints them). */
    public String checksum() {
        return checksum;
    }

    public String bech32() {
        return bech32;
    }

    /** The address as a 32-byte log topic. */
    public String topic() {
        return topic;
    }

    @Override
    public String toString() {
        return hex;
    }
}
