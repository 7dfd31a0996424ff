package dev.weft.devnet.opinit;

import dev.weft.chain.Hex;
import dev.weft.chain.proto.ProtoWriter;
import dev.weft.devnet.exec.Bank;
import dev.weft.devnet.exec.EventLog;
import dev.weft.devnet.exec.ExecError;
import dev.weft.devnet.exec.IbcAddresses;
import dev.weft.devnet.exec.MsgContext;
import dev.weft.devnet.exec.MsgModule;
import dev.weft.devnet.registry.ChainDenoms;
import dev.weft.devnet.tx.MsgTypes;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * OPinit's {@code ophost} module on the L1: token deposits into a bridge ({@code initiate_token_deposit}, with the L1
 * sequence counted per bridge) and the executor's output proposals ({@code propose_output}).
 */
public final class OpHostModule implements MsgModule {
    private final String prefix;
    private final OpListener listener;
    private final Map<Long, long[]> bridges = new LinkedHashMap<>(); // id → {next l1 sequence, next output index}

    public OpHostModule(String prefix, OpListener listener) {
        this.prefix = prefix;
        this.listener = listener;
    }

    public void addBridge(long bridgeId) {
        bridges.put(bridgeId, new long[] {1, 1});
    }

    @Override
    public List<String> types() {
        return List.of(MsgTypes.DEPOSIT, MsgTypes.PROPOSE_OUTPUT);
    }

    @Override
    public void check(MsgContext ctx, String typeUrl, JsonObject msg) {
        long id = Long.parseUnsignedLong(msg.getString("bridge_id"));
        if (!bridges.containsKey(id))
            throw new ExecError("ophost", 13, "bridge with id " + id + " not found: not found");
        if (typeUrl.equals(MsgTypes.DEPOSIT)) {
            JsonObject coin = msg.getJsonObject("amount");
            String amount = coin.getString("amount");
            if (!amount.matches("\\d{1,78}") || new BigInteger(amount).signum() <= 0)
                throw ExecError.invalidCoins("invalid amount " + amount);
            if (coin.getString("denom").isEmpty()) throw ExecError.invalidCoins("empty denom");
            if (msg.getString("to").isBlank()) throw ExecError.invalidAddress("empty recipient");
        }
    }

    @Override
    public byte[] execute(MsgContext ctx, String typeUrl, JsonObject msg, EventLog log) {
        long id = Long.parseUnsignedLong(msg.getString("bridge_id"));
        long[] counters = bridges.get(id);
        if (typeUrl.equals(MsgTypes.PROPOSE_OUTPUT)) {
            long index = counters[1]++;
            log.add(
                    "propose_output",
                    "proposer",
                    msg.getString("proposer"),
                    "bridge_id",
                    Long.toString(id),
                    "output_index",
                    Long.toString(index),
                    "l2_block_number",
                    msg.getString("l2_block_number"),
                    "output_root",
                    Hex.lower(Base64.getDecoder().decode(msg.getString("output_root"))));
            return new ProtoWriter().varint(1, index).toByteArray();
        }
        long sequence = counters[0]++;
        JsonObject coin = msg.getJsonObject("amount");
        String l1Denom = coin.getString("denom");
        String amount = coin.getString("amount");
        String l2Denom = ChainDenoms.opDeposit(id, l1Denom);
        Bank.send(log, msg.getString("sender"), bridgeAddress(id), Bank.coin(amount, l1Denom));
        String data = msg.getString("data");
        log.add(
                "initiate_token_deposit",
                "bridge_id",
                Long.toString(id),
                "l1_sequence",
                Long.toString(sequence),
                "from",
                msg.getString("sender"),
                "to",
                msg.getString("to"),
                "l1_denom",
                l1Denom,
                "l2_denom",
                l2Denom,
                "amount",
                amount,
                "data",
                Hex.lower(Base64.getDecoder().decode(data)));
        listener.depositInitiated(new OpListener.Deposit(
                id,
                sequence,
                msg.getString("sender"),
                msg.getString("to"),
                l1Denom,
                l2Denom,
                amount,
                data,
                ctx.height(),
                ctx.timeNanos()));
        return new ProtoWriter().varint(1, sequence).toByteArray();
    }

    private String bridgeAddress(long id) {
        return IbcAddresses.module("ophost/bridge_" + id, prefix);
    }
}
