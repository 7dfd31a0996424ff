package dev.weft.testsupport;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.Hex;
import dev.weft.devnet.crypto.Rlp;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.util.Arrays;

/**
 * Signs Ethereum txs with ethers ({@code src/test/node/eth-sign.mjs}) for one private key, as a wallet does before
 * {@code eth_sendRawTransaction}.
 */
public record EthWallet(BigInteger key) {

    /** The key's EVM address (lower-case {@code 0x} hex). */
    public String address() {
        return Hex.prefixed(AccountAddress.fromEthSecp256k1(AccountAddress.compressedPublicKey(key))
                .bytes());
    }

    /** An EIP-1559 tx's fields (numbers as decimal strings, as the script takes them). */
    public static JsonObject eip1559(
            long chainId, long nonce, String to, BigInteger value, String data, long gas, BigInteger maxFee) {
        return new JsonObject()
                .put("type", "2")
                .put("chainId", Long.toString(chainId))
                .put("nonce", Long.toString(nonce))
                .put("to", to)
                .put("value", value.toString())
                .put("data", data)
                .put("gasLimit", Long.toString(gas))
                .put("maxFeePerGas", maxFee.toString())
                .put("maxPriorityFeePerGas", "0");
    }

    /** A legacy EIP-155 tx's fields. */
    public static JsonObject legacy(
            long chainId, long nonce, String to, BigInteger value, String data, long gas, BigInteger gasPrice) {
        return new JsonObject()
                .put("type", "0")
                .put("chainId", Long.toString(chainId))
                .put("nonce", Long.toString(nonce))
                .put("to", to)
                .put("value", value.toString())
                .put("data", data)
                .put("gasLimit", Long.toString(gas))
                .put("gasPrice", gasPrice.toString());
    }

    /** Signs each tx; {@code {raw, hash, from}} per tx, in order. */
    public JsonArray sign(JsonObject... txs) throws Exception {
        JsonObject in = new JsonObject()
                .put("key", "0x" + String.format("%064x", key))
                .put("txs", new JsonArray(Arrays.asList((Object[]) txs)));
        return new JsonArray(SkipClientScripts.run("eth-sign.mjs", in.encode()));
    }

    /** The same EIP-1559 tx with its signature's s replaced by n − s (and the parity flipped): valid ECDSA, refused by EIP-2. */
    public static String withHighS(String raw) {
        byte[] b = Hex.decode(raw);
        java.util.List<byte[]> items = new java.util.ArrayList<>(Rlp.list(Arrays.copyOfRange(b, 1, b.length)));
        BigInteger n = new BigInteger("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141", 16);
        items.set(9, Rlp.encodeInteger(BigInteger.ONE.subtract(Rlp.integer(items.get(9)))));
        items.set(11, Rlp.encodeInteger(n.subtract(Rlp.integer(items.get(11)))));
        byte[] body = Rlp.encodeList(items);
        byte[] out = new byte[body.length + 1];
        out[0] = 2;
        System.arraycopy(body, 0, out, 1, body.length);
        return Hex.prefixed(out);
    }
}
