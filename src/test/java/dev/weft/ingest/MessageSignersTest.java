package dev.weft.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.Bech32;
import dev.weft.chain.CosmosTx;
import dev.weft.chain.Hex;
import dev.weft.chain.model.BlockResults;
import dev.weft.chain.model.CometBlock;
import dev.weft.chain.model.NodeJson;
import dev.weft.chain.model.RestTx;
import dev.weft.config.ChainConfig;
import dev.weft.model.ingest.IndexedBlock;
import dev.weft.testsupport.FixtureChain;
import dev.weft.testsupport.TestConfig;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A tx's signers from its messages' signer fields (Cosmos SDK 0.50), falling back to its public keys. */
class MessageSignersTest {
    static final MessageSigners SIGNERS = new MessageSigners("init");
    static final AccountAddress ALICE = AccountAddress.of(Hex.decode("f39fd6e51aad88f6f4ce6ab8827279cfffb92266"));
    static final AccountAddress BOB = AccountAddress.of(Hex.decode("70997970c51812dc3a010c7d01b50e0d17dc79c8"));

    static RestTx tx(JsonObject... messages) {
        return Nodes.restTx(new JsonObject()
                .put(
                        "body",
                        new JsonObject()
                                .put("messages", new JsonArray(List.of((Object[]) messages)))
                                .put("memo", ""))
                .put("auth_info", new JsonObject().put("signer_infos", new JsonArray()))
                .put("signatures", new JsonArray()));
    }

    static JsonObject msg(String type) {
        return new JsonObject().put("@type", type);
    }

    @Test
    @DisplayName(
            "the annotated signer field of each message: a delegation's delegator (not its validator), a grant's granter, a validator's operator, MsgExec's grantee")
    void signerFields() {
        String alice = ALICE.bech32("init");
        String bob = BOB.bech32("init");
        assertEquals(
                List.of(ALICE),
                SIGNERS.of(tx(msg("/cosmos.staking.v1beta1.MsgDelegate")
                        .put("delegator_address", alice)
                        .put("validator_address", Bech32.encode("initvaloper", BOB.bytes()))
                        .put("amount", new JsonObject()))));
        assertEquals(
                List.of(ALICE),
                SIGNERS.of(tx(msg("/cosmos.authz.v1beta1.MsgGrant")
                        .put("grantee", bob)
                        .put("granter", alice))));
        assertEquals(
                List.of(BOB),
                SIGNERS.of(tx(msg("/cosmos.authz.v1beta1.MsgExec")
                        .put("grantee", bob)
                        .put(
                                "msgs",
                                new JsonArray()
                                        .add(msg("/cosmos.bank.v1beta1.MsgSend").put("from_address", alice))))),
                "nested messages are not signers");
        assertEquals(
                List.of(ALICE),
                SIGNERS.of(tx(msg("/cosmos.staking.v1beta1.MsgCreateValidator")
                        .put("delegator_address", "")
                        .put("validator_address", Bech32.encode("initvaloper", ALICE.bytes())))));
        assertEquals(
                List.of(ALICE, BOB),
                SIGNERS.of(tx(
                        msg("/cosmos.bank.v1beta1.MsgSend")
                                .put("from_address", alice)
                                .put("to_address", bob),
                        msg("/initia.move.v1.MsgExecute").put("sender", bob),
                        msg("/ibc.core.client.v1.MsgUpdateClient").put("signer", alice))),
                "distinct, in message order");
        assertEquals(
                List.of(BOB),
                SIGNERS.of(tx(msg("/opinit.opchild.v1.MsgFinalizeTokenDeposit")
                        .put("sender", bob)
                        .put("from", alice)
                        .put("to", alice))),
                "the relayer (sender) signs an OPinit deposit, not its L1 sender (from)");
        assertEquals(
                List.of(ALICE),
                SIGNERS.of(tx(msg("/cosmos.gov.v1.MsgUpdateParams").put("authority", alice))));
        assertEquals(List.of(), SIGNERS.of(tx(msg("/x.y.MsgNothing").put("note", alice))));
    }

    @Test
    @DisplayName("Ethermint-style MsgEthereumTx: no signer_infos, the signer in from (bytes as base64, or hex)")
    void ethereumTx() {
        JsonObject data = new JsonObject()
                .put("@type", "/ethermint.evm.v1.DynamicFeeTx")
                .put("nonce", "3")
                .put("to", BOB.hex());
        assertEquals(
                List.of(ALICE),
                SIGNERS.of(tx(msg("/cosmos.evm.vm.v1.MsgEthereumTx")
                        .put("from", Base64.getEncoder().encodeToString(ALICE.bytes()))
                        .put("raw", "AgE="))));
        assertEquals(
                List.of(ALICE),
                SIGNERS.of(tx(msg("/ethermint.evm.v1.MsgEthereumTx")
                        .put("data", data)
                        .put("size", 0)
                        .put("hash", "0x" + "ab".repeat(32))
                        .put("from", ALICE.checksumHex()))));
    }

    @Test
    @DisplayName(
            "assembled: an Ethermint tx without signer_infos has its from as signer (by_account?is_signer=true lists it); a message without a signer field falls back to the public key")
    void assembled() {
        ChainConfig chain = TestConfig.defaults().build().chain();
        BlockAssembler assembler =
                new BlockAssembler(new AccountExtractor(chain), dev.weft.nft.NftParser.forChain(chain));
        FixtureChain fixture = FixtureChain.offline("fixture-1");
        byte[] ethTx = new CosmosTx(
                        List.of(new CosmosTx.Any("/cosmos.evm.vm.v1.MsgEthereumTx", new byte[] {1})),
                        "",
                        0,
                        List.of(),
                        new CosmosTx.Fee(List.of(), 0, "", ""),
                        List.of())
                .encode();
        byte[] keyed = fixture.rawTx(1, 0);
        JsonObject block = fixture.block(2);
        block.getJsonObject("block")
                .getJsonObject("data")
                .put(
                        "txs",
                        new JsonArray()
                                .add(Base64.getEncoder().encodeToString(ethTx))
                                .add(Base64.getEncoder().encodeToString(keyed)));
        BlockAssembler.Decoded d = assembler.decode(CometBlock.parse(NodeJson.parse(block.toBuffer())));
        JsonObject results = fixture.blockResults(2);
        results.put(
                "txs_results",
                new JsonArray()
                        .add(new JsonObject()
                                .put("code", 0)
                                .put("gas_used", "1")
                                .put("gas_wanted", "1"))
                        .add(new JsonObject()
                                .put("code", 0)
                                .put("gas_used", "1")
                                .put("gas_wanted", "1")));
        JsonObject noSignerField = fixture.restTx(1, 0);
        noSignerField
                .getJsonObject("body")
                .put("messages", new JsonArray().add(msg("/x.y.MsgPing").put("note", "hi")));
        RestTx[] rest = {
            tx(msg("/cosmos.evm.vm.v1.MsgEthereumTx")
                    .put("from", Base64.getEncoder().encodeToString(ALICE.bytes()))),
            Nodes.restTx(noSignerField)
        };
        IndexedBlock b = assembler.assemble(
                d,
                BlockResults.parse(NodeJson.parse(results.toBuffer())),
                rest,
                List.of(),
                new IndexedBlock.Proposer("", "", ""),
                List.of());
        assertEquals(ALICE, b.txs().get(0).signer());
        assertEquals(Map.of(ALICE, true), b.txs().get(0).accounts());
        assertEquals(FixtureChain.signer(1, 0), b.txs().get(1).signer());
        assertEquals(Map.of(FixtureChain.signer(1, 0), true), b.txs().get(1).accounts());
    }
}
