package dev.weft.devnet.gen;

import dev.weft.chain.Bech32;
import dev.weft.chain.Hashes;
import dev.weft.chain.Hex;
import java.util.Arrays;
import java.util.Base64;

/**
 * A sequencer of the rollup: an ed25519 consensus key, its CometBFT address (first 20 bytes of SHA-256 of the key) and
 * the opchild operator address, which is the valoper bech32 of those same bytes (how rollytics resolves a proposer).
 */
public record Validator(int index, byte[] pubKey, byte[] address, String moniker, String operatorAddress) {

    static Validator of(int index, byte[] pubKey, String moniker, String valoperPrefix) {
        byte[] addr = Arrays.copyOf(Hashes.sha256(pubKey), 20);
        return new Validator(index, pubKey, addr, moniker, Bech32.encode(valoperPrefix, addr));
    }

    public String addressHex() {
        return Hex.upper(address);
    }

    public String pubKeyBase64() {
        return Base64.getEncoder().encodeToString(pubKey);
    }
}
