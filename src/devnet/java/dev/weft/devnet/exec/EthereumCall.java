package dev.weft.devnet.exec;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.Hex;
import dev.weft.devnet.gen.Abi;
import dev.weft.devnet.gen.Actor;
import dev.weft.devnet.gen.Event;
import dev.weft.devnet.gen.EvmLog;
import dev.weft.devnet.gen.Genesis;
import dev.weft.devnet.gen.Token;
import dev.weft.devnet.gen.Tx;
import dev.weft.devnet.tx.DecodedTx;
import dev.weft.devnet.tx.EthRawTx;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Executes an Ethereum tx that {@code eth_sendRawTransaction} wrapped in a {@code MsgCall}, as the devnet's generated EVM
 * txs behave: the value moves the fee token (minievm's native coin), and a {@code transfer(address,uint256)} or
 * {@code approve(address,uint256)} to one of the chain's ERC-20s moves the token or logs the approval; each movement
 * logs the ERC-20's event and, for a transfer, the bank events. Any other call is recorded without effect. The tx
 * keeps its Ethereum hash, signature and fields as its EVM view.
 */
public final class EthereumCall {
    private static final String APPROVE = Abi.selector("approve(address,uint256)");
    private static final String APPROVAL_TOPIC =
            "0x" + Hex.lower(dev.weft.chain.Hashes.keccak256("Approval(address,address,uint256)"));

    private EthereumCall() {}

    public static Tx deliver(ChainApp app, Genesis genesis, DecodedTx d, EthRawTx eth, long height, long timeNanos) {
        Tx base = app.deliver(d, height, timeNanos);
        String prefix = genesis.spec().bech32Prefix();
        if (base.code == 0) {
            EventLog log = new EventLog(0);
            effects(log, genesis, eth, d.msgs().get(0).signer());
            List<Event> events = new ArrayList<>(base.events);
            events.addAll(log.events());
            base = Tx.submitted(0, d.raw(), d.tx(), base.msgs, 0, "", "", base.data, base.gasUsed, events);
        }
        return CallView.ethereum(base, eth, prefix);
    }

    private static void effects(EventLog log, Genesis genesis, EthRawTx eth, String sender) {
        String prefix = genesis.spec().bech32Prefix();
        byte[] to = Hex.decode(eth.to());
        Token fee = genesis.feeToken();
        BigInteger value = eth.value().divide(BigInteger.TEN.pow(18 - fee.decimals()));
        if (value.signum() > 0)
            move(log, fee, sender, eth.from(), AccountAddress.of(to).bech32(prefix), eth.to(), value);
        Token token = genesis.tokenAt(to);
        String input = Hex.prefixed(eth.input());
        if (token == null || eth.input().length != 4 + 64) return;
        byte[] arg = Arrays.copyOfRange(eth.input(), 16, 36);
        BigInteger amount = new BigInteger(1, Arrays.copyOfRange(eth.input(), 36, 68));
        if (input.startsWith(Abi.TRANSFER)) {
            move(log, token, sender, eth.from(), AccountAddress.of(arg).bech32(prefix), Hex.prefixed(arg), amount);
        } else if (input.startsWith(APPROVE)) {
            Actor c = token.contract();
            log.add(
                    "evm",
                    "log",
                    new EvmLog(
                                    c.hex(),
                                    c.checksum(),
                                    List.of(
                                            APPROVAL_TOPIC,
                                            "0x" + Abi.word(eth.from()),
                                            "0x" + Abi.word(Hex.prefixed(arg))),
                                    "0x" + Abi.word(amount))
                            .cosmosJson());
        }
    }

    /** A token movement on minievm: the ERC-20's Transfer log, then the bank events. */
    private static void move(
            EventLog log, Token token, String from, String fromHex, String to, String toHex, BigInteger amount) {
        Actor c = token.contract();
        log.add(
                "evm",
                "log",
                new EvmLog(
                                c.hex(),
                                c.checksum(),
                                List.of(Abi.TRANSFER_TOPIC, "0x" + Abi.word(fromHex), "0x" + Abi.word(toHex)),
                                "0x" + Abi.word(amount))
                        .cosmosJson());
        Bank.send(log, from, to, Bank.coin(amount.toString(), token.bankDenom()));
    }
}
