package dev.weft.devnet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.chain.Hex;
import dev.weft.devnet.gen.DevnetChain;
import dev.weft.devnet.gen.TxPlan.Kind;
import dev.weft.devnet.tx.EthRawTx;
import dev.weft.testsupport.SkipClientScripts;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Locale;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The devnet's EVM txs are real signed EIP-1559 txs and their hash is Keccak-256 of the signed envelope, as minievm
 * names them (not of the Cosmos TxRaw): ethers rebuilds each tx of a block from its JSON to the same hash and sender,
 * the devnet's raw-tx decoder recovers the sender from ethers' serialisation, and every endpoint names the tx alike.
 */
class EvmTxHashTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    private static DevnetHarness devnet;
    private static DevnetChain chain;

    @BeforeAll
    static void start() {
        devnet = DevnetHarness.start(weft, DevnetHarness.history(40));
        chain = devnet.replica();
    }

    static JsonArray ethers(JsonArray txs) throws Exception {
        return new JsonArray(SkipClientScripts.run("eth-tx-hash.mjs", txs.encode()));
    }

    @Test
    @DisplayName(
            "ethers' Transaction.from(fields + signature) gives each tx's hash and sender; EthRawTx decodes the serialised tx to the same; receipts, hash lookups and the minievm hash mappings agree")
    void hashIsKeccakOfTheSignedEthereumTx() throws Exception {
        DevnetChain.TxRef router = Fixtures.first(chain, Kind.ROUTER_CALL);
        DevnetChain.TxRef transfer = Fixtures.first(chain, Kind.NATIVE_TRANSFER);
        JsonArray txs = new JsonArray();
        for (DevnetChain.TxRef ref : java.util.List.of(router, transfer)) {
            JsonObject block = devnet.eth("eth_getBlockByNumber", "0x" + Long.toHexString(ref.block().height), true)
                    .getJsonObject("result");
            txs.addAll(block.getJsonArray("transactions"));
        }
        assertTrue(txs.size() >= 2, txs.encode());
        JsonArray rebuilt = ethers(txs);
        long chainId = Long.decode(devnet.eth("eth_chainId").getString("result"));
        for (int i = 0; i < txs.size(); i++) {
            JsonObject tx = txs.getJsonObject(i);
            JsonObject e = rebuilt.getJsonObject(i);
            String hash = tx.getString("hash");
            assertEquals(hash, e.getString("hash"), tx.encode());
            assertEquals(tx.getString("from"), e.getString("from"), tx.encode());
            EthRawTx decoded = EthRawTx.decode(Hex.decode(e.getString("serialized")), chainId);
            assertEquals(hash, "0x" + decoded.hash());
            assertEquals(tx.getString("from"), decoded.from());

            assertEquals(tx, devnet.eth("eth_getTransactionByHash", hash).getJsonObject("result"));
            assertEquals(
                    hash,
                    devnet.eth("eth_getTransactionReceipt", hash)
                            .getJsonObject("result")
                            .getString("transactionHash"));
            String cosmosHash = devnet.eth("cosmos_cosmosTxHashByTxHash", hash).getString("result");
            assertEquals(
                    hash, devnet.eth("cosmos_txHashByCosmosTxHash", cosmosHash).getString("result"));
            JsonObject cosmosTx = devnet.rpc("/tx?hash=0x" + cosmosHash.toUpperCase(Locale.ROOT))
                    .getJsonObject("result");
            byte[] txRaw = java.util.Base64.getDecoder().decode(cosmosTx.getString("tx"));
            assertNotEquals(
                    hash,
                    Hex.prefixed(dev.weft.chain.Hashes.keccak256(txRaw)),
                    "not the keccak of the Cosmos tx bytes");
        }
        assertEquals(
                router.tx().evm.hash(),
                txs.stream()
                        .map(o -> ((JsonObject) o).getString("hash"))
                        .filter(h -> h.equals(router.tx().evm.hash()))
                        .findFirst()
                        .orElseThrow());
    }
}
