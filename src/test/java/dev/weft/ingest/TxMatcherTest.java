package dev.weft.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.weft.chain.CosmosTx;
import dev.weft.chain.model.RestTx;
import dev.weft.testsupport.FixtureChain;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Pairing REST-decoded txs with raw txs. */
class TxMatcherTest {
    @Test
    @DisplayName("the real initia.js TxRaw and its decoded JSON have the same key")
    void realTx() {
        JsonObject js = FixtureChain.read("initia-js-offline/signed_tx_msgsend_msgcall.json");
        CosmosTx raw = CosmosTx.decodeBase64(js.getString("tx_base64"));
        assertEquals(TxMatcher.key(raw), TxMatcher.key(Nodes.restTx(js.getJsonObject("decoded_amino_json"))));
        assertEquals(
                js.getString("tx_hash_sha256_hex"),
                CosmosTx.hash(java.util.Base64.getDecoder().decode(js.getString("tx_base64"))));
    }

    @Test
    @DisplayName("order does not matter; a short answer leaves slots open; a later answer fills only the open ones")
    void partial() {
        FixtureChain chain = FixtureChain.offline("c");
        List<String> keys = new ArrayList<>();
        List<RestTx> rest = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            keys.add(TxMatcher.key(CosmosTx.decode(chain.rawTx(3, i))));
            rest.add(Nodes.restTx(chain.restTx(3, i)));
        }
        RestTx[] slots = new RestTx[3];
        assertEquals(1, TxMatcher.match(keys, List.of(rest.get(2), rest.get(0)), slots));
        assertSame(rest.get(0), slots[0]);
        assertNull(slots[1]);
        assertSame(rest.get(2), slots[2]);
        assertEquals(0, TxMatcher.match(keys, List.of(rest.get(2), rest.get(1), rest.get(0)), slots));
        assertSame(rest.get(1), slots[1]);
        RestTx[] none = new RestTx[3];
        assertEquals(3, TxMatcher.match(keys, List.of(Nodes.restTx(chain.restTx(4, 0))), none));
    }
}
