package dev.weft.devnet.evm;

import dev.weft.chain.Hashes;
import dev.weft.chain.Hex;
import dev.weft.devnet.gen.Abi;
import dev.weft.devnet.gen.Block;
import dev.weft.devnet.gen.CallFrame;
import dev.weft.devnet.gen.EvmLog;
import dev.weft.devnet.gen.EvmTx;
import dev.weft.devnet.gen.Planner;
import dev.weft.devnet.gen.Tx;
import dev.weft.devnet.json.JsonOut;
import java.nio.charset.StandardCharsets;

/**
 * EVM JSON-RPC objects as geth (and so minievm) prints them: blocks and receipts are Go maps (keys in alphabetical
 * order), transactions and logs Go structs (declaration order), quantities hex without leading zeros, data and hashes
 * {@code 0x} lower-case hex. Only single-call txs are EVM txs; their {@code transactionIndex} counts EVM txs only and
 * {@code logIndex} runs across the block.
 */
public final class EthJson {
    static final String EMPTY_ROOT = "0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421";
    static final String EMPTY_UNCLES = "0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347";
    static final String ZERO_HASH = "0x" + "0".repeat(64);
    static final String GAS_PRICE = Abi.quantity(Planner.EVM_GAS_PRICE);
    static final String BLOCK_GAS_LIMIT = "0x1c9c380";

    private EthJson() {}

    public static void block(JsonOut g, Block b, boolean full, String chainIdHex, byte[] stateRoot) {
        g.writeStartObject();
        g.writeSafeStringField("baseFeePerGas", GAS_PRICE);
        g.writeSafeStringField("difficulty", "0x0");
        g.writeSafeStringField("extraData", "0x");
        g.writeSafeStringField("gasLimit", BLOCK_GAS_LIMIT);
        g.writeSafeStringField("gasUsed", Abi.quantity(b.evmGasUsed));
        g.writeSafeStringField("hash", b.ethHash());
        g.writeSafeStringField("logsBloom", Hex.prefixed(b.logsBloom));
        g.writeSafeStringField("miner", Abi.ZERO_ADDRESS);
        g.writeSafeStringField("mixHash", ZERO_HASH);
        g.writeSafeStringField("nonce", "0x0000000000000000");
        g.writeSafeStringField("number", Abi.quantity(b.height));
        g.writeSafeStringField("parentHash", b.lastBlockHash == null ? ZERO_HASH : Hex.prefixed(b.lastBlockHash));
        g.writeSafeStringField("receiptsRoot", root(b, "receipts"));
        g.writeSafeStringField("sha3Uncles", EMPTY_UNCLES);
        g.writeSafeStringField("size", Abi.quantity(b.size));
        g.writeSafeStringField("stateRoot", Hex.prefixed(stateRoot));
        g.writeSafeStringField("timestamp", Abi.quantity(b.timeNanos / 1_000_000_000L));
        g.writeArrayFieldStart("transactions");
        for (int i = 0; i < b.evmTxs.size(); i++) {
            if (full) tx(g, b, i, chainIdHex);
            else g.writeSafeString(b.evmTxs.get(i).evm.hash());
        }
        g.writeEndArray();
        g.writeSafeStringField("transactionsRoot", root(b, "transactions"));
        g.writeArrayFieldStart("uncles");
        g.writeEndArray();
        g.writeEndObject();
    }

    private static String root(Block b, String what) {
        if (b.evmTxs.isEmpty()) return EMPTY_ROOT;
        byte[] in = (Hex.lower(b.hash) + what).getBytes(StandardCharsets.US_ASCII);
        return Hex.prefixed(Hashes.keccak256(in));
    }

    /** The i-th EVM tx of the block (geth's RPCTransaction, an EIP-1559 tx). */
    public static void tx(JsonOut g, Block b, int i, String chainIdHex) {
        EvmTx e = b.evmTxs.get(i).evm;
        g.writeStartObject();
        g.writeSafeStringField("blockHash", b.ethHash());
        g.writeSafeStringField("blockNumber", Abi.quantity(b.height));
        g.writeSafeStringField("from", e.from().hex());
        g.writeSafeStringField("gas", Abi.quantity(e.gas()));
        EvmTx.Envelope env = e.envelope();
        g.writeSafeStringField("gasPrice", env.feeCap());
        if (env.type() == 2) {
            g.writeSafeStringField("maxFeePerGas", env.feeCap());
            g.writeSafeStringField("maxPriorityFeePerGas", env.tip());
        }
        g.writeSafeStringField("hash", e.hash());
        g.writeSafeStringField("input", e.input());
        g.writeSafeStringField("nonce", Abi.quantity(e.nonce()));
        if (e.to() == null) g.writeNullField("to");
        else g.writeSafeStringField("to", e.to());
        g.writeSafeStringField("transactionIndex", Abi.quantity(i));
        g.writeSafeStringField("value", Abi.quantity(e.value()));
        g.writeSafeStringField("type", Abi.quantity(env.type()));
        if (env.type() != 0) {
            g.writeArrayFieldStart("accessList");
            g.writeEndArray();
        }
        g.writeSafeStringField("chainId", chainIdHex);
        g.writeSafeStringField("v", env.v());
        g.writeSafeStringField("r", e.r());
        g.writeSafeStringField("s", e.s());
        if (env.type() != 0) g.writeSafeStringField("yParity", e.yParity());
        g.writeEndObject();
    }

    /** The receipt of the i-th EVM tx of the block. */
    public static void receipt(JsonOut g, Block b, int i) {
        Tx tx = b.evmTxs.get(i);
        EvmTx e = tx.evm;
        g.writeStartObject();
        g.writeSafeStringField("blockHash", b.ethHash());
        g.writeSafeStringField("blockNumber", Abi.quantity(b.height));
        if (e.contractAddress() == null) g.writeNullField("contractAddress");
        else g.writeSafeStringField("contractAddress", e.contractAddress());
        g.writeSafeStringField("cumulativeGasUsed", Abi.quantity(b.cumulativeGas[i]));
        g.writeSafeStringField("effectiveGasPrice", e.envelope().feeCap());
        g.writeSafeStringField("from", e.from().hex());
        g.writeSafeStringField("gasUsed", Abi.quantity(e.gasUsed()));
        g.writeArrayFieldStart("logs");
        int logIndex = b.firstLogIndex[i];
        for (EvmLog l : e.logs()) log(g, l, b, e.hash(), i, logIndex++);
        g.writeEndArray();
        g.writeSafeStringField("logsBloom", Hex.prefixed(e.bloom()));
        g.writeSafeStringField("status", e.status() ? "0x1" : "0x0");
        if (e.to() == null) g.writeNullField("to");
        else g.writeSafeStringField("to", e.to());
        g.writeSafeStringField("transactionHash", e.hash());
        g.writeSafeStringField("transactionIndex", Abi.quantity(i));
        g.writeSafeStringField("type", Abi.quantity(e.envelope().type()));
        g.writeEndObject();
    }

    static void log(JsonOut g, EvmLog l, Block b, String txHash, int txIndex, int logIndex) {
        g.writeStartObject();
        g.writeSafeStringField("address", l.address());
        g.writeArrayFieldStart("topics");
        for (String t : l.topics()) g.writeSafeString(t);
        g.writeEndArray();
        g.writeSafeStringField("data", l.data());
        g.writeSafeStringField("blockNumber", Abi.quantity(b.height));
        g.writeSafeStringField("transactionHash", txHash);
        g.writeSafeStringField("transactionIndex", Abi.quantity(txIndex));
        g.writeSafeStringField("blockHash", b.ethHash());
        g.writeSafeStringField("logIndex", Abi.quantity(logIndex));
        g.writeBooleanField("removed", false);
        g.writeEndObject();
    }

    /** A callTracer frame: from, gas, gasUsed, to, input, output?, error?, revertReason?, calls?, value?, type. */
    public static void frame(JsonOut g, CallFrame f, boolean onlyTop) {
        g.writeStartObject();
        g.writeSafeStringField("from", f.from());
        g.writeSafeStringField("gas", Abi.quantity(f.gas()));
        g.writeSafeStringField("gasUsed", Abi.quantity(f.gasUsed()));
        g.writeSafeStringField("to", f.to());
        g.writeSafeStringField("input", f.input());
        if (f.output() != null) g.writeSafeStringField("output", f.output());
        if (f.error() != null) g.writeStringField("error", f.error());
        if (f.revertReason() != null) g.writeStringField("revertReason", f.revertReason());
        if (!onlyTop && f.calls() != null && !f.calls().isEmpty()) {
            g.writeArrayFieldStart("calls");
            for (CallFrame c : f.calls()) frame(g, c, false);
            g.writeEndArray();
        }
        if (f.value() != null) g.writeSafeStringField("value", f.value());
        g.writeSafeStringField("type", f.type());
        g.writeEndObject();
    }

    /**
     * One entry of {@code debug_traceBlock*}: the frame of an EVM tx, or minievm's error for a Cosmos tx that is not a
     * single EVM call (named by 0x + its Cosmos hash).
     */
    public static void traceEntry(JsonOut g, Tx tx, String chainId, boolean onlyTop) {
        g.writeStartObject();
        g.writeSafeStringField("txHash", tx.ethHash());
        if (tx.evm != null) {
            g.writeFieldName("result");
            frame(g, tx.evm.frame(), onlyTop);
        } else {
            g.writeStringField("error", cosmosTraceError(tx, chainId));
        }
        g.writeEndObject();
    }

    static String cosmosTraceError(Tx tx, String chainId) {
        return "signature verification failed; please verify account number (" + tx.accountNumber() + ") and chain-id ("
                + chainId
                + "): (failed to get ethereum tx from context): unauthorized: incorrect number of top-level calls";
    }
}
