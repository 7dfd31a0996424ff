package dev.weft.devnet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.devnet.gen.Abi;
import dev.weft.devnet.gen.Token;
import dev.weft.devnet.world.World;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.EthWallet;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code eth_sendRawTransaction} on the devnet's minievm chain: txs a wallet (ethers) signs with a devnet test key are
 * queued under their Keccak hash, executed in the next block (value and ERC-20 transfer move coins), and every
 * endpoint names them alike; a bad signature, another chain id, a used or skipped nonce and a cost above the balance
 * are refused with geth's / minievm's messages.
 */
class EthSendRawTransactionTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final BigInteger GAS_PRICE = BigInteger.valueOf(15_000_000_000L);
    static final BigInteger SCALE = BigInteger.TEN.pow(12); // the fee token has 6 decimals, the EVM 18
    static DevnetHarness d;
    static long chainId;
    static final EthWallet wallet = new EthWallet(World.TEST_ACCOUNT_KEYS.get(2));

    @BeforeAll
    static void start() {
        d = DevnetHarness.start(
                weft,
                weft.config()
                        .roles("devnet")
                        .set("devnet.mode", "live")
                        .set("devnet.history_blocks", 10)
                        .set("devnet.block_interval", "100ms")
                        .set("devnet.txs_per_block", 2));
        chainId = Long.decode(d.eth("eth_chainId").getString("result"));
    }

    static BigInteger balance(String address) {
        return new BigInteger(
                d.eth("eth_getBalance", address, "latest").getString("result").substring(2), 16);
    }

    static JsonObject receipt(String hash) {
        Await.until(
                "receipt of " + hash,
                30,
                () -> d.eth("eth_getTransactionReceipt", hash).getValue("result") != null);
        return d.eth("eth_getTransactionReceipt", hash).getJsonObject("result");
    }

    static JsonObject error(String raw) {
        JsonObject r = d.eth("eth_sendRawTransaction", raw);
        assertTrue(r.containsKey("error"), r.encode());
        assertEquals(-32000, r.getJsonObject("error").getInteger("code"));
        return r.getJsonObject("error");
    }

    static String address(int tag) {
        return "0x" + String.format("%040x", 0xe7e7_0000L + tag);
    }

    @Test
    @DisplayName(
            "a value transfer and an ERC-20 transfer signed by ethers: the ethers hash, nonces from eth_getTransactionCount, status 1, balances moved, one hash on every endpoint")
    void acceptedAndExecuted() throws Exception {
        Token fee = d.replica().genesis().feeToken();
        String recipient = address(1);
        String tokenRecipient = address(2);
        BigInteger before = balance(wallet.address());
        assertEquals(World.TEST_ACCOUNT_COINS.multiply(SCALE), before);
        assertEquals(
                "0x0",
                d.eth("eth_getTransactionCount", wallet.address(), "pending").getString("result"));
        BigInteger value = BigInteger.TEN.pow(18);
        String transfer = Abi.TRANSFER + Abi.word(tokenRecipient) + Abi.word(BigInteger.valueOf(2500));
        JsonArray signed = wallet.sign(
                EthWallet.eip1559(chainId, 0, recipient, value, "0x", 21_000, GAS_PRICE),
                EthWallet.eip1559(chainId, 1, fee.contract().hex(), BigInteger.ZERO, transfer, 60_000, GAS_PRICE));
        List<String> hashes = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            JsonObject s = signed.getJsonObject(i);
            assertEquals(wallet.address(), s.getString("from"));
            assertEquals(
                    s.getString("hash"),
                    d.eth("eth_sendRawTransaction", s.getString("raw")).getString("result"));
            hashes.add(s.getString("hash"));
            assertEquals(
                    "0x" + (i + 1),
                    d.eth("eth_getTransactionCount", wallet.address(), "pending")
                            .getString("result"));
        }
        assertEquals(
                "already known", error(signed.getJsonObject(1).getString("raw")).getString("message"));

        JsonObject r0 = receipt(hashes.get(0));
        JsonObject r1 = receipt(hashes.get(1));
        for (JsonObject r : List.of(r0, r1)) {
            assertEquals("0x1", r.getString("status"), r.encode());
            assertEquals(wallet.address(), r.getString("from"));
        }
        assertEquals(hashes.get(0), r0.getString("transactionHash"));
        assertEquals(recipient, r0.getString("to"));
        assertEquals("0x5208", r0.getString("gasUsed"));
        assertEquals(fee.contract().hex(), r1.getString("to"));
        // the ERC-20's Transfer(from, to, amount)
        JsonObject log = r1.getJsonArray("logs").getJsonObject(0);
        assertEquals(
                new JsonArray()
                        .add(Abi.TRANSFER_TOPIC)
                        .add("0x" + Abi.word(wallet.address()))
                        .add("0x" + Abi.word(tokenRecipient)),
                log.getJsonArray("topics"));
        assertEquals("0x" + Abi.word(2500), log.getString("data"));
        assertEquals(hashes.get(1), log.getString("transactionHash"));

        JsonObject tx = d.eth("eth_getTransactionByHash", hashes.get(0)).getJsonObject("result");
        assertEquals(hashes.get(0), tx.getString("hash"));
        assertEquals(wallet.address(), tx.getString("from"));
        assertEquals("0x0", tx.getString("nonce"));
        assertEquals(Abi.quantity(value), tx.getString("value"));
        assertEquals(r0.getString("blockNumber"), tx.getString("blockNumber"));
        JsonObject block =
                d.eth("eth_getBlockByNumber", r0.getString("blockNumber"), true).getJsonObject("result");
        assertTrue(
                block.getJsonArray("transactions").stream()
                        .anyMatch(t -> ((JsonObject) t).getString("hash").equals(hashes.get(0))),
                block.encode());
        String cosmos = d.eth("cosmos_cosmosTxHashByTxHash", hashes.get(0)).getString("result");
        assertNotEquals("0".repeat(64), cosmos);
        assertEquals(hashes.get(0), d.eth("cosmos_txHashByCosmosTxHash", cosmos).getString("result"));
        JsonObject cometTx =
                new JsonObject(d.get(d.rpcPort, "/tx?hash=0x" + cosmos).body()).getJsonObject("result");
        assertEquals(0, cometTx.getJsonObject("tx_result").getInteger("code"), cometTx.encode());

        Await.until(
                "both txs committed",
                30,
                () -> "0x2"
                        .equals(d.eth("eth_getTransactionCount", wallet.address(), "latest")
                                .getString("result")));
        // the sender paid value + gas limit × fee cap (in whole fee-token units), the recipients received
        BigInteger fees = BigInteger.valueOf(21_000 + 60_000).multiply(GAS_PRICE);
        assertEquals(
                before.subtract(value)
                        .subtract(fees)
                        .subtract(BigInteger.valueOf(2500).multiply(SCALE)),
                balance(wallet.address()));
        assertEquals(value, balance(recipient));
        assertEquals(BigInteger.valueOf(2500).multiply(SCALE), balance(tokenRecipient));
    }

    @Test
    @DisplayName(
            "a legacy EIP-155 tx, an EIP-1559 tx with a tip and an ERC-20 approve: each tx's JSON rebuilds with ethers to its hash and sender; type, fees and the Approval log as signed")
    void signedFieldsAreServedAsSigned() throws Exception {
        EthWallet signer = new EthWallet(World.TEST_ACCOUNT_KEYS.get(5));
        Token fee = d.replica().genesis().feeToken();
        BigInteger price = GAS_PRICE.multiply(BigInteger.TWO);
        String approve =
                Abi.selector("approve(address,uint256)") + Abi.word(address(5)) + Abi.word(BigInteger.valueOf(777));
        JsonArray signed = signer.sign(
                EthWallet.legacy(chainId, 0, address(4), BigInteger.TEN.pow(15), "0x", 21_000, price),
                EthWallet.eip1559(chainId, 1, address(4), BigInteger.ZERO, "0x", 21_000, price)
                        .put("maxPriorityFeePerGas", "1000000000"),
                EthWallet.eip1559(chainId, 2, fee.contract().hex(), BigInteger.ZERO, approve, 50_000, GAS_PRICE));
        JsonArray served = new JsonArray();
        for (int i = 0; i < 3; i++) {
            assertEquals(
                    signed.getJsonObject(i).getString("hash"),
                    d.eth("eth_sendRawTransaction", signed.getJsonObject(i).getString("raw"))
                            .getString("result"));
        }
        for (int i = 0; i < 3; i++) {
            String hash = signed.getJsonObject(i).getString("hash");
            receipt(hash);
            served.add(d.eth("eth_getTransactionByHash", hash).getJsonObject("result"));
        }
        JsonArray rebuilt = EvmTxHashTest.ethers(served);
        for (int i = 0; i < 3; i++) {
            assertEquals(
                    signed.getJsonObject(i).getString("hash"),
                    rebuilt.getJsonObject(i).getString("hash"),
                    served.getJsonObject(i).encode());
            assertEquals(signer.address(), rebuilt.getJsonObject(i).getString("from"));
        }
        JsonObject legacy = served.getJsonObject(0);
        assertEquals("0x0", legacy.getString("type"));
        assertEquals(Abi.quantity(price), legacy.getString("gasPrice"));
        assertEquals(
                List.of(false, false, false),
                List.of(
                        legacy.containsKey("maxFeePerGas"),
                        legacy.containsKey("yParity"),
                        legacy.containsKey("accessList")));
        assertEquals("0x3b9aca00", served.getJsonObject(1).getString("maxPriorityFeePerGas"));
        JsonObject r = receipt(signed.getJsonObject(0).getString("hash"));
        assertEquals("0x0", r.getString("type"));
        assertEquals(Abi.quantity(price), r.getString("effectiveGasPrice"));
        JsonObject log = receipt(signed.getJsonObject(2).getString("hash"))
                .getJsonArray("logs")
                .getJsonObject(0);
        assertEquals(
                new JsonArray()
                        .add("0x"
                                + dev.weft.chain.Hex.lower(
                                        dev.weft.chain.Hashes.keccak256("Approval(address,address,uint256)")))
                        .add("0x" + Abi.word(signer.address()))
                        .add("0x" + Abi.word(address(5))),
                log.getJsonArray("topics"));
        assertEquals("0x" + Abi.word(777), log.getString("data"));
    }

    @Test
    @DisplayName(
            "refusals: a high-S signature, another chain id, a used nonce, a skipped nonce, a cost above the balance")
    void refusals() throws Exception {
        EthWallet other = new EthWallet(World.TEST_ACCOUNT_KEYS.get(3));
        String to = address(3);
        JsonArray signed = other.sign(
                EthWallet.eip1559(chainId, 0, to, BigInteger.ONE, "0x", 21_000, GAS_PRICE),
                EthWallet.eip1559(1, 0, to, BigInteger.ONE, "0x", 21_000, GAS_PRICE),
                EthWallet.eip1559(chainId, 5, to, BigInteger.ONE, "0x", 21_000, GAS_PRICE),
                EthWallet.eip1559(chainId, 0, to, BigInteger.TEN.pow(40), "0x", 21_000, GAS_PRICE),
                EthWallet.eip1559(chainId, 0, to, BigInteger.TWO, "0x", 21_000, GAS_PRICE));
        assertEquals(
                "invalid transaction v, r, s values",
                error(EthWallet.withHighS(signed.getJsonObject(0).getString("raw")))
                        .getString("message"));
        assertEquals(
                "invalid chain id for signer: have 1 want " + chainId,
                error(signed.getJsonObject(1).getString("raw")).getString("message"));
        assertEquals(
                "nonce too high: next nonce 0, tx nonce 5",
                error(signed.getJsonObject(2).getString("raw")).getString("message"));
        BigInteger balance = World.TEST_ACCOUNT_COINS.multiply(SCALE);
        BigInteger cost = BigInteger.TEN.pow(40).add(BigInteger.valueOf(21_000).multiply(GAS_PRICE));
        assertEquals(
                "insufficient funds for gas * price + value: balance " + balance + ", tx cost " + cost + ", overshot "
                        + cost.subtract(balance),
                error(signed.getJsonObject(3).getString("raw")).getString("message"));
        String hash = signed.getJsonObject(0).getString("hash");
        assertEquals(
                hash,
                d.eth("eth_sendRawTransaction", signed.getJsonObject(0).getString("raw"))
                        .getString("result"));
        assertEquals(
                "nonce too low: next nonce 1, tx nonce 0",
                error(signed.getJsonObject(4).getString("raw")).getString("message"));
        assertEquals("0x1", receipt(hash).getString("status"));
        JsonObject notHex = d.eth("eth_sendRawTransaction", "abcd").getJsonObject("error");
        assertEquals(-32602, notHex.getInteger("code"));
    }
}
