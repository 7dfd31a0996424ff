package dev.weft.chain;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Ground truth: a real TxRaw signed offline by @initia/initia.js (src/test/resources/fixtures/initia-js-offline). */
class CosmosTxTest {
    static final Path FIXTURE =
            dev.weft.testsupport.FixtureChain.FIXTURES.resolve("initia-js-offline/signed_tx_msgsend_msgcall.json");

    @Test
    @DisplayName("decodes the recorded TxRaw: hash, messages, memo, fee, signer and signature")
    void decodesRealTx() throws Exception {
        JsonObject f = new JsonObject(Files.readString(FIXTURE));
        byte[] raw = Base64.getDecoder().decode(f.getString("tx_base64"));
        assertEquals(f.getString("tx_hash_sha256_hex"), CosmosTx.hash(raw));
        CosmosTx tx = CosmosTx.decode(raw);
        JsonObject json = f.getJsonObject("decoded_amino_json");
        assertEquals(2, tx.messages().size());
        assertEquals("/cosmos.bank.v1beta1.MsgSend", tx.messages().get(0).typeUrl());
        assertEquals("/minievm.evm.v1.MsgCall", tx.messages().get(1).typeUrl());
        assertEquals("peer-sample", tx.memo());
        assertEquals(new CosmosTx.Coin("uinit", "3000"), tx.fee().amount().get(0));
        assertEquals(200000, tx.fee().gasLimit());
        var signer = tx.signerInfos().get(0);
        assertEquals("/initia.crypto.v1beta1.ethsecp256k1.PubKey", signer.pubKeyType());
        assertEquals(3, signer.sequence());
        assertEquals(
                json.getJsonObject("auth_info")
                        .getJsonArray("signer_infos")
                        .getJsonObject(0)
                        .getJsonObject("public_key")
                        .getString("key"),
                Base64.getEncoder().encodeToString(signer.pubKey()));
        assertEquals(
                "init17w0adeg64ky0daxwd2ugyuneellmjgnxdtmpqz", signer.address().bech32("init"));
        assertEquals(
                json.getJsonArray("signatures").getString(0),
                Base64.getEncoder().encodeToString(tx.signatures().get(0)));
    }

    @Test
    @DisplayName("re-encoding the decoded tx gives the same bytes and hash")
    void roundTrip() throws Exception {
        JsonObject f = new JsonObject(Files.readString(FIXTURE));
        byte[] raw = Base64.getDecoder().decode(f.getString("tx_base64"));
        assertArrayEquals(raw, CosmosTx.decode(raw).encode());
    }
}
