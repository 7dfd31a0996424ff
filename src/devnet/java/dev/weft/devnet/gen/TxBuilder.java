package dev.weft.devnet.gen;

import dev.weft.chain.CosmosTx;
import dev.weft.chain.proto.ProtoWriter;
import dev.weft.devnet.gen.TxPlan.Kind;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Renders a {@link TxPlan} into a {@link Tx}: real TxRaw protobuf bytes (messages, ethsecp256k1 signer, fee; the
 * signed Ethereum tx's signature for an EVM tx, a pseudo-random one otherwise: these genesis-era txs never pass
 * CheckTx), the ABCI result and the events minievm emits, in its order: the ante handler's fee payment
 * (fee-token {@code call} + {@code evm} Transfer log + bank events, then {@code tx} fee/acc_seq/signature), then per
 * message a {@code message} event and the message's own events, all tagged {@code msg_index}. A failed tx keeps only
 * the ante events.
 */
public final class TxBuilder {
    public static final String ETHSECP256K1 = "/initia.crypto.v1beta1.ethsecp256k1.PubKey";
    private static final long TAG_SIG = 31;

    private final Genesis genesis;
    private final EvmBuilder evm;
    private final long seed;

    public TxBuilder(Genesis genesis, EvmBuilder evm) {
        this.genesis = genesis;
        this.evm = evm;
        this.seed = genesis.spec().seed();
    }

    public Tx build(TxPlan p, int index) {
        Actor signer = genesis.actor(p.sender);
        List<Msg> msgs = messages(p, signer);
        List<CosmosTx.Coin> fee = p.fee > 0 ? List.of(coin(genesis.feeToken(), p.fee)) : List.of();
        // an EVM tx carries its Ethereum signature (r || s || v, as minievm keeps it); other txs a pseudo-random one
        EvmBuilder.SignedEthTx eth = p.kind.evm() ? evm.sign(p) : null;
        byte[] sig = eth != null ? eth.signature() : Mix.bytes(seed, TAG_SIG, p.g, 64);
        List<CosmosTx.Any> anys = new ArrayList<>(msgs.size());
        for (Msg m : msgs) anys.add(new CosmosTx.Any(m.typeUrl(), m.proto()));
        byte[] raw = new CosmosTx(
                        anys,
                        p.memo,
                        0,
                        List.of(new CosmosTx.SignerInfo(ETHSECP256K1, signer.pubKey(), p.sequence)),
                        new CosmosTx.Fee(fee, p.gasLimit, "", ""),
                        List.of(sig))
                .encode();
        String sigB64 = Base64.getEncoder().encodeToString(sig);
        List<EvmLog> logs = evm.logs(p);
        List<Event> events = new ArrayList<>(12 + 2 * logs.size());
        int next = ante(p, signer, fee, sigB64, logs, events);
        boolean ok = !p.kind.failed();
        if (ok) {
            for (int i = 0; i < msgs.size(); i++) next = messageEvents(p, i, msgs.get(i), signer, logs, next, events);
        }
        String log = ok ? "" : failureLog(p);
        EvmTx e = eth != null ? evm.evmTx(p, eth, logs) : null;
        return new Tx(
                p,
                index,
                raw,
                Base64.getEncoder().encodeToString(raw),
                CosmosTx.hash(raw),
                msgs,
                p.memo,
                signer,
                p.sequence,
                fee,
                p.gasLimit,
                sigB64,
                ok ? 0 : p.kind == Kind.FAIL_OUT_OF_GAS ? 11 : 2,
                ok ? "" : p.kind == Kind.FAIL_OUT_OF_GAS ? "sdk" : "evm",
                log,
                ok ? msgData(p, msgs) : null,
                p.gasUsed,
                events,
                e);
    }

    private static CosmosTx.Coin coin(Token t, long quanta) {
        return new CosmosTx.Coin(t.bankDenom(), t.amount(quanta));
    }

    private List<Msg> messages(TxPlan p, Actor signer) {
        String s = signer.bech32();
        return switch (p.kind) {
            case DEPLOY -> List.of(new Msg.Create(s, EvmBuilder.initCode(p.deploy), "0"));
            case BANK_SEND, FAIL_OUT_OF_GAS -> List.of(send(s, p.recipient, p.token, p.amount));
            case MULTI_MSG ->
                List.of(
                        send(s, p.recipient, p.token, p.amount),
                        new Msg.Call(
                                s, genesis.tokens().get(p.token2).contract().checksum(), evm.input(p), "0"));
            case NATIVE_TRANSFER, ROUTER_CALL ->
                List.of(new Msg.Call(
                        s,
                        evm.target(p).checksum(),
                        evm.input(p),
                        genesis.feeToken().amount(p.value)));
            default -> List.of(new Msg.Call(s, evm.target(p).checksum(), evm.input(p), "0"));
        };
    }

    private Msg send(String from, int to, int token, long amount) {
        return new Msg.Send(
                from, genesis.actor(to).bech32(), List.of(coin(genesis.tokens().get(token), amount)));
    }

    /** The ante handler's events; returns the index of the first log not yet emitted. */
    private int ante(TxPlan p, Actor signer, List<CosmosTx.Coin> fee, String sig, List<EvmLog> logs, List<Event> out) {
        String payer = signer.bech32();
        int next = 0;
        String feeText = "";
        if (p.fee > 0) {
            feeText = fee.get(0).amount() + fee.get(0).denom();
            bankTransfer(
                    genesis.feeToken().contract(),
                    "0x",
                    logs.get(0),
                    payer,
                    genesis.feeCollector().bech32(),
                    feeText,
                    null,
                    out);
            next = 1;
        }
        out.add(event("tx", null, "fee", feeText, "fee_payer", payer));
        out.add(event("tx", null, "acc_seq", payer + "/" + p.sequence));
        out.add(event("tx", null, "signature", sig));
        return next;
    }

    /** A bank send on minievm: the backing ERC-20 is called, logs its Transfer, then bank events follow. */
    private static void bankTransfer(
            Actor token,
            String ret,
            EvmLog log,
            String from,
            String to,
            String amount,
            String msgIndex,
            List<Event> out) {
        out.add(event("call", msgIndex, "contract", token.checksum(), "ret", ret));
        out.add(event("evm", msgIndex, "log", log.cosmosJson()));
        out.add(event("coin_spent", msgIndex, "spender", from, "amount", amount));
        out.add(event("coin_received", msgIndex, "receiver", to, "amount", amount));
        out.add(event("transfer", msgIndex, "recipient", to, "sender", from, "amount", amount));
        out.add(event("message", msgIndex, "sender", from));
    }

    private int messageEvents(TxPlan p, int i, Msg m, Actor signer, List<EvmLog> logs, int next, List<Event> out) {
        String idx = Integer.toString(i);
        out.add(event("message", idx, "action", m.typeUrl(), "sender", signer.bech32(), "module", m.module()));
        if (m instanceof Msg.Send send) {
            CosmosTx.Coin c = send.amount().get(0);
            Token t = genesis.tokenByDenom(c.denom());
            bankTransfer(t.contract(), "0x", logs.get(next), send.from(), send.to(), c.amount() + c.denom(), idx, out);
            return next + 1;
        }
        if (m instanceof Msg.Create) {
            out.add(event(
                    "create", idx, "contract", evm.genesisContract(p.deploy).checksum()));
        } else {
            Msg.Call call = (Msg.Call) m;
            out.add(event(
                    "call",
                    idx,
                    "contract",
                    call.contractAddr(),
                    "ret",
                    p.kind == Kind.MULTI_MSG ? "0x" + Abi.word(1) : evm.ret(p)));
        }
        int last = p.kind == Kind.MULTI_MSG ? next + 1 : logs.size();
        for (int k = next; k < last; k++)
            out.add(event("evm", idx, "log", logs.get(k).cosmosJson()));
        return last;
    }

    private static String failureLog(TxPlan p) {
        if (p.kind == Kind.FAIL_OUT_OF_GAS) {
            return "out of gas in location: WriteFlat; gasWanted: " + p.gasLimit + ", gasUsed: " + p.gasUsed
                    + ": out of gas";
        }
        return "failed to execute message; message index: 0: execution reverted: " + Planner.REVERT_REASONS[p.reason]
                + ": EVM call failed";
    }

    /** TxMsgData: one Any per message response (field 2). */
    private byte[] msgData(TxPlan p, List<Msg> msgs) {
        ProtoWriter w = new ProtoWriter();
        for (Msg m : msgs) {
            ProtoWriter resp = new ProtoWriter();
            String url;
            if (m instanceof Msg.Send) {
                url = "/cosmos.bank.v1beta1.MsgSendResponse";
            } else if (m instanceof Msg.Create) {
                url = "/minievm.evm.v1.MsgCreateResponse";
                resp.string(1, evm.ret(p))
                        .string(2, evm.genesisContract(p.deploy).checksum());
            } else {
                url = "/minievm.evm.v1.MsgCallResponse";
                resp.string(1, p.kind == Kind.MULTI_MSG ? "0x" + Abi.word(1) : evm.ret(p));
            }
            w.message(2, new ProtoWriter().string(1, url).bytes(2, resp.toByteArray()));
        }
        return w.toByteArray();
    }

    /** An event of alternating key/value attributes (indexed), plus {@code msg_index} when given. */
    static Event event(String type, String msgIndex, String... kv) {
        List<Event.Attr> attrs = new ArrayList<>(kv.length / 2 + 1);
        for (int i = 0; i < kv.length; i += 2) attrs.add(new Event.Attr(kv[i], kv[i + 1], true));
        if (msgIndex != null) attrs.add(new Event.Attr("msg_index", msgIndex, true));
        return new Event(type, attrs);
    }
}
