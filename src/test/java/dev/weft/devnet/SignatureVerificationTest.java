package dev.weft.devnet;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.CosmosTx;
import dev.weft.devnet.tx.DirectSign;
import dev.weft.devnet.tx.MsgTypes;
import dev.weft.devnet.world.World;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.DevnetAccounts;
import dev.weft.testsupport.RouteTxs;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The devnet's CheckTx verifies SIGN_MODE_DIRECT signatures against the account number and sequence its auth endpoint
 * serves, and answers as the SDK does: code 4 for a bad signature, 32 for a wrong sequence, 8 for a key that is not
 * the signer's.
 */
class SignatureVerificationTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final String L1 = "weft-l1-1";
    static DevnetHarness d;

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
    }

    /** A test key: its private key, public key type and compressed public key, and the account it signs for. */
    record Key(BigInteger secret, String type) {
        byte[] pub() {
            return AccountAddress.compressedPublicKey(secret);
        }

        String address() {
            AccountAddress a = type.equals(DirectSign.ETHSECP256K1)
                    ? AccountAddress.fromEthSecp256k1(pub())
                    : AccountAddress.fromSecp256k1(pub());
            return a.bech32("init");
        }
    }

    /** An unsigned MsgSend of {@code amount} uinit from the key's account, with that sequence in its signer info. */
    static CosmosTx send(Key from, byte[] signerPub, long sequence, String amount) {
        JsonObject msg = new JsonObject()
                .put("from_address", from.address())
                .put("to_address", DevnetAccounts.ALICE)
                .put(
                        "amount",
                        new JsonArray()
                                .add(new JsonObject().put("denom", "uinit").put("amount", amount)));
        CosmosTx.Any any = new CosmosTx.Any(
                MsgTypes.SEND, MsgTypes.of(MsgTypes.SEND).schema().encode(msg));
        return new CosmosTx(
                List.of(any),
                "",
                0,
                List.of(new CosmosTx.SignerInfo(from.type(), signerPub, sequence)),
                new CosmosTx.Fee(List.of(new CosmosTx.Coin("uinit", "3000")), 200_000, "", ""),
                List.of());
    }

    static JsonObject account(String address) {
        return new JsonObject(d.get(d.restPort(L1), "/cosmos/auth/v1beta1/accounts/" + address)
                        .body())
                .getJsonObject("account");
    }

    static long number(Key k) {
        return Long.parseLong(account(k.address()).getString("account_number"));
    }

    static void committedSequence(Key k, String expected) {
        Await.until(
                k.address() + " at sequence " + expected,
                30,
                () -> expected.equals(account(k.address()).getString("sequence")));
    }

    /** broadcast_tx_sync; the CheckTx result. */
    static JsonObject sync(byte[] raw) {
        JsonObject req = new JsonObject()
                .put("jsonrpc", "2.0")
                .put("id", 1)
                .put("method", "broadcast_tx_sync")
                .put("params", new JsonObject().put("tx", RouteTxs.base64(raw)));
        return new JsonObject(d.post(d.rpcPort(L1), req.encode()).body()).getJsonObject("result");
    }

    @Test
    @DisplayName(
            "a correctly signed tx (ethsecp256k1, keccak256) is accepted and increments the account's sequence; replaying its sequence is code 32")
    void acceptedThenReplayed() {
        Key k = new Key(World.TEST_ACCOUNT_KEYS.get(1), DirectSign.ETHSECP256K1);
        long n = number(k);
        assertEquals("0", account(k.address()).getString("sequence"));
        byte[] first = DirectSign.sign(send(k, k.pub(), 0, "1"), k.secret(), L1, n);
        JsonObject ok = sync(first);
        assertEquals(0, ok.getInteger("code"), ok.encode());
        // the check state counts the queued tx at once; the auth endpoint serves the committed sequence
        committedSequence(k, "1");
        JsonObject again = new JsonObject(d.post(
                        d.rpcPort(L1),
                        new JsonObject()
                                .put("jsonrpc", "2.0")
                                .put("id", 1)
                                .put("method", "broadcast_tx_sync")
                                .put("params", new JsonObject().put("tx", RouteTxs.base64(first)))
                                .encode())
                .body());
        assertEquals("tx already exists in cache", again.getJsonObject("error").getString("data"), again.encode());
        JsonObject replay = sync(DirectSign.sign(send(k, k.pub(), 0, "2"), k.secret(), L1, n));
        assertEquals(32, replay.getInteger("code"));
        assertEquals("sdk", replay.getString("codespace"));
        assertEquals(
                "account sequence mismatch, expected 1, got 0: incorrect account sequence", replay.getString("log"));
        JsonObject ahead = sync(DirectSign.sign(send(k, k.pub(), 5, "3"), k.secret(), L1, n));
        assertEquals(
                "account sequence mismatch, expected 1, got 5: incorrect account sequence", ahead.getString("log"));
        assertEquals(
                0,
                sync(DirectSign.sign(send(k, k.pub(), 1, "4"), k.secret(), L1, n))
                        .getInteger("code"));
        JsonObject third = sync(DirectSign.sign(send(k, k.pub(), 2, "5"), k.secret(), L1, n));
        assertEquals(
                0,
                third.getInteger("code"),
                "a second tx queued before the first is committed takes the next sequence");
        committedSequence(k, "3");
    }

    @Test
    @DisplayName(
            "a Cosmos secp256k1 key (sha256) is verified too, through REST broadcast and the ABCI account query alike")
    void cosmosKeyThroughRest() {
        Key k = new Key(World.TEST_ACCOUNT_KEYS.get(2), DirectSign.SECP256K1);
        long n = number(k);
        byte[] raw = DirectSign.sign(send(k, k.pub(), 0, "1"), k.secret(), L1, n);
        JsonObject body = new JsonObject().put("tx_bytes", RouteTxs.base64(raw)).put("mode", "BROADCAST_MODE_SYNC");
        JsonObject res = new JsonObject(d.post(d.restPort(L1), "/cosmos/tx/v1beta1/txs", body.encode())
                        .body())
                .getJsonObject("tx_response");
        assertEquals(0, res.getInteger("code"), res.encode());
        committedSequence(k, "1");
    }

    @Test
    @DisplayName(
            "a signature by another key, or over another account number or chain id, is code 4 unauthorized; the sequence stays")
    void wrongKeyIsUnauthorized() {
        Key k = new Key(World.TEST_ACCOUNT_KEYS.get(3), DirectSign.ETHSECP256K1);
        Key other = new Key(World.TEST_ACCOUNT_KEYS.get(4), DirectSign.ETHSECP256K1);
        long n = number(k);
        String log = "signature verification failed; please verify account number (" + n + ") and chain-id (" + L1
                + "): unauthorized";
        JsonObject wrongKey = sync(DirectSign.sign(send(k, k.pub(), 0, "1"), other.secret(), L1, n));
        assertEquals(4, wrongKey.getInteger("code"));
        assertEquals("sdk", wrongKey.getString("codespace"));
        assertEquals(log, wrongKey.getString("log"));
        assertEquals(
                4,
                sync(DirectSign.sign(send(k, k.pub(), 0, "2"), k.secret(), L1, n + 1))
                        .getInteger("code"));
        assertEquals(
                4,
                sync(DirectSign.sign(send(k, k.pub(), 0, "3"), k.secret(), "weft-devnet-1", n))
                        .getInteger("code"));
        CosmosTx unsigned = send(k, k.pub(), 0, "4");
        byte[] dummy = new CosmosTx(
                        unsigned.messages(), "", 0, unsigned.signerInfos(), unsigned.fee(), List.of(new byte[64]))
                .encode();
        assertEquals(4, sync(dummy).getInteger("code"));
        assertEquals("0", account(k.address()).getString("sequence"));
    }

    @Test
    @DisplayName("a signer info whose key is not the message signer's is code 8 invalid pubkey")
    void keyOfAnotherAccount() {
        Key k = new Key(World.TEST_ACCOUNT_KEYS.get(5), DirectSign.ETHSECP256K1);
        Key other = new Key(World.TEST_ACCOUNT_KEYS.get(6), DirectSign.ETHSECP256K1);
        JsonObject r = sync(DirectSign.sign(send(k, other.pub(), 0, "1"), other.secret(), L1, number(other)));
        assertEquals(8, r.getInteger("code"));
        assertEquals(
                "pubKey does not match signer address " + k.address() + " with signer index: 0: invalid pubkey",
                r.getString("log"));
    }

    @Test
    @DisplayName(
            "a key whose account the chain never saw is code 9: the fee payer does not exist; its address is 404 on the auth endpoint")
    void unknownAccount() {
        Key k = new Key(BigInteger.valueOf(0x5EC12E7), DirectSign.ETHSECP256K1);
        var res = d.get(d.restPort(L1), "/cosmos/auth/v1beta1/accounts/" + k.address());
        assertEquals(404, res.statusCode());
        JsonObject r = sync(DirectSign.sign(send(k, k.pub(), 0, "1"), k.secret(), L1, 0));
        assertEquals(9, r.getInteger("code"));
        assertEquals("sdk", r.getString("codespace"));
        assertEquals("fee payer address: " + k.address() + " does not exist: unknown address", r.getString("log"));
    }
}
