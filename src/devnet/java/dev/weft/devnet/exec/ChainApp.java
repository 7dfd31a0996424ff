package dev.weft.devnet.exec;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.CosmosTx;
import dev.weft.chain.proto.ProtoWriter;
import dev.weft.devnet.gen.Event;
import dev.weft.devnet.gen.Msg;
import dev.weft.devnet.gen.Tx;
import dev.weft.devnet.tx.DecodedTx;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The application of a devnet chain for submitted txs: the modules that execute each message type, and DeliverTx. A
 * tx runs like on a Cosmos SDK 0.50 chain: the ante handler's events (fee paid to the fee collector, {@code tx} fee,
 * {@code acc_seq} and signatures), then per message {@code message{action, sender, module}} and the module's events,
 * all tagged {@code msg_index}. Every message is checked before any executes, so a refused message fails the whole tx
 * (its code, codespace and log; only the ante events stay) and changes nothing.
 */
public final class ChainApp {
    private static final long ANTE_GAS = 40_000;

    private final String chainId;
    private final String prefix;
    private final String feeCollector;
    private final Predicate<String> validAddress;
    private final Map<String, MsgModule> modules = new LinkedHashMap<>();
    /** On a Move chain, the Move VM's events of every coin movement; null elsewhere. */
    private MoveCoinEvents moveCoins;

    public ChainApp(String chainId, String prefix, Predicate<String> validAddress) {
        this.chainId = chainId;
        this.prefix = prefix;
        this.validAddress = validAddress;
        this.feeCollector = dev.weft.devnet.exec.IbcAddresses.module("fee_collector", prefix);
    }

    public ChainApp add(MsgModule m) {
        for (String t : m.types()) modules.put(t, m);
        return this;
    }

    /**
     * Makes this a Move chain: coins are fungible assets whose movements emit the Move VM's events ({@code ownerEvents}:
     * with the owner events of newer movevm versions).
     */
    public ChainApp moveVm(boolean ownerEvents) {
        this.moveCoins = new MoveCoinEvents(prefix, ownerEvents);
        return this;
    }

    /** The Move side of coin movements (null off Move chains). */
    public MoveCoinEvents moveCoins() {
        return moveCoins;
    }

    public String chainId() {
        return chainId;
    }

    public Set<String> types() {
        return modules.keySet();
    }

    public Predicate<String> validAddress() {
        return validAddress;
    }

    /** The gas a tx uses: the ante handler's and each message module's. */
    public long gasWanted(DecodedTx d) {
        long gas = ANTE_GAS;
        for (DecodedTx.Msg m : d.msgs())
            gas += modules.get(m.type().url()).gas(m.type().url());
        return gas;
    }

    /** Executes a checked tx in the block at {@code height}, {@code timeNanos}. */
    public Tx deliver(DecodedTx d, long height, long timeNanos) {
        EventLog ante = new EventLog(null, moveCoins);
        String payer = payer(d);
        List<CosmosTx.Coin> fee = d.tx().fee().amount();
        String feeText =
                String.join(",", fee.stream().map(c -> c.amount() + c.denom()).toList());
        if (!fee.isEmpty()) Bank.send(ante, payer, feeCollector, feeText);
        ante.add("tx", "fee", feeText, "fee_payer", payer);
        long sequence =
                d.tx().signerInfos().isEmpty() ? 0 : d.tx().signerInfos().get(0).sequence();
        ante.add("tx", "acc_seq", payer + "/" + sequence);
        for (byte[] sig : d.tx().signatures())
            ante.add("tx", "signature", Base64.getEncoder().encodeToString(sig));
        List<Msg> msgs = new ArrayList<>();
        long gas = gasWanted(d);
        for (DecodedTx.Msg m : d.msgs())
            msgs.add(new Msg.Submitted(m.type().url(), m.proto(), m.type().module(), json(m)));
        for (int i = 0; i < d.msgs().size(); i++) {
            DecodedTx.Msg m = d.msgs().get(i);
            try {
                modules.get(m.type().url())
                        .check(
                                new MsgContext(chainId, height, timeNanos, d.hash(), i),
                                m.type().url(),
                                m.value());
            } catch (ExecError e) {
                return Tx.submitted(
                        0,
                        d.raw(),
                        d.tx(),
                        msgs,
                        e.code(),
                        e.codespace(),
                        "failed to execute message; message index: " + i + ": " + e.getMessage(),
                        null,
                        gas / 2,
                        ante.events());
            }
        }
        List<Event> events = new ArrayList<>(ante.events());
        ProtoWriter data = new ProtoWriter();
        for (int i = 0; i < d.msgs().size(); i++) {
            DecodedTx.Msg m = d.msgs().get(i);
            EventLog log = new EventLog(i, moveCoins);
            log.add(
                    "message",
                    "action",
                    m.type().url(),
                    "sender",
                    m.signer(),
                    "module",
                    m.type().module());
            byte[] response = modules.get(m.type().url())
                    .execute(
                            new MsgContext(chainId, height, timeNanos, d.hash(), i),
                            m.type().url(),
                            m.value(),
                            log);
            events.addAll(log.events());
            data.message(
                    2, new ProtoWriter().string(1, m.type().url() + "Response").bytes(2, response));
        }
        long limit = d.tx().fee().gasLimit();
        return CallView.attach(
                Tx.submitted(
                        0,
                        d.raw(),
                        d.tx(),
                        msgs,
                        0,
                        "",
                        "",
                        data.toByteArray(),
                        limit > 0 ? Math.min(gas, limit) : gas,
                        events),
                d,
                prefix);
    }

    /** The fee payer: the first signer's account (from its public key), else the first message's signer. */
    private String payer(DecodedTx d) {
        if (!d.tx().fee().payer().isEmpty()) return d.tx().fee().payer();
        for (CosmosTx.SignerInfo s : d.tx().signerInfos()) {
            AccountAddress a = s.address();
            if (a != null) return a.bech32(prefix);
        }
        return d.msgs().get(0).signer();
    }

    /** The proto JSON of a message as the REST API shows it: {@code "@type"} first, then its fields in proto order. */
    private static String json(DecodedTx.Msg m) {
        JsonObject o = new JsonObject().put("@type", m.type().url());
        m.value().forEach(e -> o.put(e.getKey(), e.getValue()));
        return o.encode();
    }
}
