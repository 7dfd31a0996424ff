package dev.weft.devnet.tx;

import static dev.weft.devnet.tx.ProtoSchema.bytes;
import static dev.weft.devnet.tx.ProtoSchema.message;
import static dev.weft.devnet.tx.ProtoSchema.repeated;
import static dev.weft.devnet.tx.ProtoSchema.string;
import static dev.weft.devnet.tx.ProtoSchema.uint64;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The messages the multi-chain devnet executes, with their protobuf layouts (field numbers from the ibc-go v8,
 * OPinit, Cosmos SDK 0.50, initia and minievm protos), the module that handles each ({@code message.module}), the
 * field naming its signer, and the amino names and {@code (amino.dont_omitempty)} fields of the messages wallets sign
 * (cosmos-sdk x/bank, ibc-go transfer, OPinit ophost/opchild, initia x/move and minievm x/evm tx.proto).
 */
public final class MsgTypes {
    public static final String SEND = "/cosmos.bank.v1beta1.MsgSend";
    public static final String TRANSFER = "/ibc.applications.transfer.v1.MsgTransfer";
    public static final String RECV_PACKET = "/ibc.core.channel.v1.MsgRecvPacket";
    public static final String ACKNOWLEDGEMENT = "/ibc.core.channel.v1.MsgAcknowledgement";
    public static final String TIMEOUT = "/ibc.core.channel.v1.MsgTimeout";
    public static final String DEPOSIT = "/opinit.ophost.v1.MsgInitiateTokenDeposit";
    public static final String PROPOSE_OUTPUT = "/opinit.ophost.v1.MsgProposeOutput";
    public static final String FINALIZE_DEPOSIT = "/opinit.opchild.v1.MsgFinalizeTokenDeposit";
    public static final String WITHDRAWAL = "/opinit.opchild.v1.MsgInitiateTokenWithdrawal";
    public static final String EXECUTE = "/initia.move.v1.MsgExecute";
    public static final String EVM_CALL = "/minievm.evm.v1.MsgCall";

    /** {@code cosmos.base.v1beta1.Coin}. */
    public static final ProtoSchema COIN =
            ProtoSchema.of(string("denom", 1), string("amount", 2).dontOmitEmpty());
    /** {@code ibc.core.client.v1.Height}. */
    public static final ProtoSchema HEIGHT = ProtoSchema.of(uint64("revision_number", 1), uint64("revision_height", 2));
    /** {@code ibc.core.channel.v1.Packet}. */
    public static final ProtoSchema PACKET = ProtoSchema.of(
            uint64("sequence", 1),
            string("source_port", 2),
            string("source_channel", 3),
            string("destination_port", 4),
            string("destination_channel", 5),
            bytes("data", 6),
            message("timeout_height", 7, HEIGHT),
            uint64("timeout_timestamp", 8));

    private static final ProtoSchema ACCESS_TUPLE =
            ProtoSchema.of(string("address", 1), repeated(string("storage_keys", 2)));

    /**
     * A known message: its layout, module, signer field and amino name ({@code (amino.name)}, the {@code type} of its
     * LEGACY_AMINO_JSON form; null for the bots' messages, which no wallet signs that way).
     */
    public record Type(String url, ProtoSchema schema, String module, String signerField, String aminoName) {}

    private static final Map<String, Type> TYPES = new LinkedHashMap<>();

    static {
        add(
                SEND,
                "bank",
                "from_address",
                "cosmos-sdk/MsgSend",
                ProtoSchema.of(
                        string("from_address", 1),
                        string("to_address", 2),
                        repeated(message("amount", 3, COIN)).dontOmitEmpty()));
        add(
                TRANSFER,
                "transfer",
                "sender",
                "cosmos-sdk/MsgTransfer",
                ProtoSchema.of(
                        string("source_port", 1),
                        string("source_channel", 2),
                        message("token", 3, COIN).dontOmitEmpty(),
                        string("sender", 4),
                        string("receiver", 5),
                        message("timeout_height", 6, HEIGHT).dontOmitEmpty(),
                        uint64("timeout_timestamp", 7),
                        string("memo", 8)));
        add(
                RECV_PACKET,
                "ibc_channel",
                "signer",
                null,
                ProtoSchema.of(
                        message("packet", 1, PACKET),
                        bytes("proof_commitment", 2),
                        message("proof_height", 3, HEIGHT),
                        string("signer", 4)));
        add(
                ACKNOWLEDGEMENT,
                "ibc_channel",
                "signer",
                null,
                ProtoSchema.of(
                        message("packet", 1, PACKET),
                        bytes("acknowledgement", 2),
                        bytes("proof_acked", 3),
                        message("proof_height", 4, HEIGHT),
                        string("signer", 5)));
        add(
                TIMEOUT,
                "ibc_channel",
                "signer",
                null,
                ProtoSchema.of(
                        message("packet", 1, PACKET),
                        bytes("proof_unreceived", 2),
                        message("proof_height", 3, HEIGHT),
                        uint64("next_sequence_recv", 4),
                        string("signer", 5)));
        add(
                DEPOSIT,
                "ophost",
                "sender",
                "ophost/MsgInitiateTokenDeposit",
                ProtoSchema.of(
                        string("sender", 1),
                        uint64("bridge_id", 2),
                        string("to", 3),
                        message("amount", 4, COIN).dontOmitEmpty(),
                        bytes("data", 5)));
        add(
                PROPOSE_OUTPUT,
                "ophost",
                "proposer",
                null,
                ProtoSchema.of(
                        string("proposer", 1),
                        uint64("bridge_id", 2),
                        uint64("output_index", 3),
                        uint64("l2_block_number", 4),
                        bytes("output_root", 5)));
        add(
                FINALIZE_DEPOSIT,
                "opchild",
                "sender",
                null,
                ProtoSchema.of(
                        string("sender", 1),
                        string("from", 2),
                        string("to", 3),
                        message("amount", 4, COIN),
                        uint64("sequence", 5),
                        uint64("height", 6),
                        string("base_denom", 7),
                        bytes("data", 8)));
        add(
                WITHDRAWAL,
                "opchild",
                "sender",
                "opchild/MsgInitiateTokenWithdrawal",
                ProtoSchema.of(
                        string("sender", 1),
                        string("to", 2),
                        message("amount", 3, COIN).dontOmitEmpty()));
        add(
                EXECUTE,
                "move",
                "sender",
                "move/MsgExecute",
                ProtoSchema.of(
                        string("sender", 1),
                        string("module_address", 2),
                        string("module_name", 3),
                        string("function_name", 4),
                        repeated(string("type_args", 5)),
                        repeated(bytes("args", 6))));
        add(
                EVM_CALL,
                "evm",
                "sender",
                "evm/MsgCall",
                ProtoSchema.of(
                        string("sender", 1),
                        string("contract_addr", 2),
                        string("input", 3),
                        string("value", 4).dontOmitEmpty(),
                        repeated(message("access_list", 5, ACCESS_TUPLE)).dontOmitEmpty()));
    }

    private static void add(String url, String module, String signer, String aminoName, ProtoSchema schema) {
        TYPES.put(url, new Type(url, schema, module, signer, aminoName));
    }

    private MsgTypes() {}

    /** The type with that URL, or null when the devnet does not know it. */
    public static Type of(String url) {
        return TYPES.get(url);
    }
}
