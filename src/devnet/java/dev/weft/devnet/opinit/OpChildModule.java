package dev.weft.devnet.opinit;

import dev.weft.chain.proto.ProtoWriter;
import dev.weft.devnet.exec.Bank;
import dev.weft.devnet.exec.EventLog;
import dev.weft.devnet.exec.ExecError;
import dev.weft.devnet.exec.IbcAddresses;
import dev.weft.devnet.exec.MsgContext;
import dev.weft.devnet.exec.MsgModule;
import dev.weft.devnet.ibc.FailureRules;
import dev.weft.devnet.registry.ChainDenoms;
import dev.weft.devnet.tx.MsgTypes;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * OPinit's {@code opchild} module on a rollup: the executor's deposit finalizations ({@code finalize_token_deposit};
 * a deposit to an "error receiver" fails with {@code success=false} and is sent back with a withdrawal, as OPinit
 * does) and users' withdrawals of bridged tokens ({@code initiate_token_withdrawal}, the L2 sequence counted here).
 */
public final class OpChildModule implements MsgModule {
    private final long bridgeId;
    private final FailureRules rules;
    private final OpListener listener;
    private final String module;
    private final Map<String, String> baseDenoms = new HashMap<>();
    private final Set<Long> finalized = new HashSet<>();
    private long nextL2Sequence = 1;

    /** @param opDenoms the L1 denoms the bridge carries (withdrawable back) */
    public OpChildModule(long bridgeId, List<String> opDenoms, String prefix, FailureRules rules, OpListener listener) {
        this.bridgeId = bridgeId;
        this.rules = rules;
        this.listener = listener;
        this.module = IbcAddresses.module("opchild", prefix);
        for (String d : opDenoms) baseDenoms.put(ChainDenoms.opDeposit(bridgeId, d), d);
    }

    @Override
    public List<String> types() {
        return List.of(MsgTypes.FINALIZE_DEPOSIT, MsgTypes.WITHDRAWAL);
    }

    @Override
    public void check(MsgContext ctx, String typeUrl, JsonObject msg) {
        JsonObject coin = msg.getJsonObject("amount");
        String amount = coin.getString("amount");
        if (!amount.matches("\\d{1,78}") || new BigInteger(amount).signum() <= 0)
            throw ExecError.invalidCoins("invalid amount " + amount);
        if (typeUrl.equals(MsgTypes.FINALIZE_DEPOSIT)) {
            long seq = Long.parseUnsignedLong(msg.getString("sequence"));
            if (finalized.contains(seq))
                throw new ExecError("opchild", 23, "deposit with sequence " + seq + " already finalized");
            return;
        }
        if (!baseDenoms.containsKey(coin.getString("denom"))) {
            throw new ExecError(
                    "opchild", 9, "failed to find base denom of " + coin.getString("denom") + ": not found");
        }
        if (msg.getString("to").isBlank()) throw ExecError.invalidAddress("empty recipient");
    }

    @Override
    public byte[] execute(MsgContext ctx, String typeUrl, JsonObject msg, EventLog log) {
        JsonObject coin = msg.getJsonObject("amount");
        String denom = coin.getString("denom");
        String amount = coin.getString("amount");
        if (typeUrl.equals(MsgTypes.WITHDRAWAL)) {
            Bank.burn(log, msg.getString("sender"), module, Bank.coin(amount, denom));
            withdraw(ctx, log, msg.getString("sender"), msg.getString("to"), denom, baseDenoms.get(denom), amount);
            return new ProtoWriter().varint(1, nextL2Sequence - 1).toByteArray();
        }
        long seq = Long.parseUnsignedLong(msg.getString("sequence"));
        finalized.add(seq);
        String from = msg.getString("from");
        String to = msg.getString("to");
        boolean ok = !rules.fails(to);
        if (ok) Bank.mint(log, module, to, Bank.coin(amount, denom));
        log.add(
                "finalize_token_deposit",
                "l1_sequence",
                Long.toString(seq),
                "sender",
                from,
                "recipient",
                to,
                "denom",
                denom,
                "base_denom",
                msg.getString("base_denom"),
                "amount",
                amount,
                "finalize_height",
                msg.getString("height"),
                "success",
                Boolean.toString(ok),
                "reason",
                ok ? "" : "deposit failed");
        if (!ok) withdraw(ctx, log, to, from, denom, msg.getString("base_denom"), amount);
        return new byte[0];
    }

    private void withdraw(
            MsgContext ctx, EventLog log, String from, String to, String denom, String baseDenom, String amount) {
        long seq = nextL2Sequence++;
        log.add(
                "initiate_token_withdrawal",
                "from",
                from,
                "to",
                to,
                "denom",
                denom,
                "base_denom",
                baseDenom,
                "amount",
                amount,
                "l2_sequence",
                Long.toString(seq)); // OPinit's attributes: no bridge_id (an L2 has one bridge)
        listener.withdrawalInitiated(bridgeId, seq, ctx.height());
    }
}
