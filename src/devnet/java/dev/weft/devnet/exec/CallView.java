package dev.weft.devnet.exec;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.Hashes;
import dev.weft.chain.Hex;
import dev.weft.devnet.gen.Abi;
import dev.weft.devnet.gen.Actor;
import dev.weft.devnet.gen.Bloom;
import dev.weft.devnet.gen.CallFrame;
import dev.weft.devnet.gen.Event;
import dev.weft.devnet.gen.EvmLog;
import dev.weft.devnet.gen.EvmTx;
import dev.weft.devnet.gen.Tx;
import dev.weft.devnet.tx.DecodedTx;
import dev.weft.devnet.tx.EthRawTx;
import dev.weft.devnet.tx.MsgTypes;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The EVM view minievm's JSON-RPC gives a submitted single-{@code MsgCall} tx whose call ran in the EVM (its module
 * emitted {@code evm} log events): hash {@code 0x} + Keccak-256 of the TxRaw, the caller, the contract, the input,
 * and exactly the {@code evm} events' logs. Calls the devnet only records (no EVM runs them) keep no view.
 */
final class CallView {
    private static final Bloom BLOOM = new Bloom();

    private CallView() {}

    static Tx attach(Tx tx, DecodedTx d, String prefix) {
        if (tx.code != 0
                || d.msgs().size() != 1
                || !d.msgs().get(0).type().url().equals(MsgTypes.EVM_CALL)) return tx;
        List<EvmLog> logs = new ArrayList<>();
        for (Event e : tx.events)
            if (e.type().equals("evm") && e.value("log") != null) logs.add(log(new JsonObject(e.value("log"))));
        if (logs.isEmpty()) return tx;
        DecodedTx.Msg m = d.msgs().get(0);
        AccountAddress sender;
        try {
            sender = AccountAddress.parse(m.signer(), prefix);
        } catch (IllegalArgumentException e) {
            return tx;
        }
        Actor from = Actor.external(sender.bytes(), prefix);
        String to = m.value().getString("contract_addr", "").toLowerCase(Locale.ROOT);
        String input = m.value().getString("input", "0x");
        byte[] sig = d.tx().signatures().isEmpty()
                ? new byte[64]
                : Arrays.copyOf(d.tx().signatures().get(0), 64);
        long gas = d.tx().fee().gasLimit();
        CallFrame frame = new CallFrame("CALL", from.hex(), to, "0x0", gas, tx.gasUsed, input, null, null, null, null);
        return tx.withEvm(new EvmTx(
                Hex.prefixed(Hashes.keccak256(tx.raw)),
                from,
                to,
                null,
                BigInteger.ZERO,
                input,
                tx.sequence,
                gas,
                tx.gasUsed,
                true,
                List.copyOf(logs),
                frame,
                Abi.quantity(new BigInteger(1, Arrays.copyOfRange(sig, 0, 32))),
                Abi.quantity(new BigInteger(1, Arrays.copyOfRange(sig, 32, 64))),
                (sig[63] & 1) == 0 ? "0x0" : "0x1",
                BLOOM.of(logs),
                EvmTx.Envelope.devnet((sig[63] & 1) == 0 ? "0x0" : "0x1")));
    }

    /**
     * The EVM view of an Ethereum tx {@code eth_sendRawTransaction} wrapped: its Ethereum hash, sender, fields and
     * signature, the {@code evm} events' logs, status from the tx's code.
     */
    static Tx ethereum(Tx tx, EthRawTx eth, String prefix) {
        List<EvmLog> logs = new ArrayList<>();
        for (Event e : tx.events)
            if (e.type().equals("evm") && e.value("log") != null) logs.add(log(new JsonObject(e.value("log"))));
        Actor from = Actor.external(Hex.decode(eth.from()), prefix);
        String input = Hex.prefixed(eth.input());
        long gas = eth.gasLimit().longValueExact();
        byte[] sig = eth.signature();
        CallFrame frame = new CallFrame(
                "CALL",
                from.hex(),
                eth.to(),
                Abi.quantity(eth.value()),
                gas,
                tx.gasUsed,
                input,
                null,
                tx.code == 0 ? null : "execution reverted",
                null,
                null);
        return tx.withEvm(new EvmTx(
                "0x" + eth.hash(),
                from,
                eth.to(),
                null,
                eth.value(),
                input,
                eth.nonce().longValueExact(),
                gas,
                tx.gasUsed,
                tx.code == 0,
                List.copyOf(logs),
                frame,
                Abi.quantity(new BigInteger(1, Arrays.copyOfRange(sig, 0, 32))),
                Abi.quantity(new BigInteger(1, Arrays.copyOfRange(sig, 32, 64))),
                sig[64] == 0 ? "0x0" : "0x1",
                BLOOM.of(logs),
                new EvmTx.Envelope(
                        eth.type(),
                        Abi.quantity(eth.gasFeeCap()),
                        Abi.quantity(eth.gasTipCap()),
                        eth.type() == 0
                                ? Abi.quantity(BigInteger.valueOf(eth.chainId())
                                        .shiftLeft(1)
                                        .add(BigInteger.valueOf(35 + sig[64])))
                                : sig[64] == 0 ? "0x0" : "0x1")));
    }

    /** A log from its {@code evm} event JSON {@code {address (EIP-55), topics, data}}. */
    private static EvmLog log(JsonObject o) {
        String checksum = o.getString("address");
        List<String> topics = new ArrayList<>();
        JsonArray t = o.getJsonArray("topics", new JsonArray());
        for (int i = 0; i < t.size(); i++) topics.add(t.getString(i).toLowerCase(Locale.ROOT));
        return new EvmLog(checksum.toLowerCase(Locale.ROOT), checksum, List.copyOf(topics), o.getString("data", "0x"));
    }
}
