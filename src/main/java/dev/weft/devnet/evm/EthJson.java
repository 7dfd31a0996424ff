package dev.weft.devnet.evm;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.weft.chain.Hashes;
import dev.weft.chain.Hex;
import dev.weft.devnet.gen.Abi;
import dev.weft.devnet.gen.Block;
import dev.weft.devnet.gen.CallFrame;
import dev.weft.devnet.gen.EvmLog;
import dev.weft.devnet.gen.EvmTx;
import dev.weft.devnet.gen.Planner;
import dev.weft.devnet.gen.Tx;

import java.io.IOException;
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
  static final String GAS_PRICE = Abi.quantity(Planner.GAS_PRICE_QUANTA * 1_000_000_000L);
  static final String BLOCK_GAS_LIMIT = "0x1c9c380";

  private EthJson() {}

  public static void block(JsonGenerator g, Block b, boolean full, String chainIdHex, byte[] stateRoot) throws IOException {
    g.writeStartObject();
    g.writeStringField("baseFeePerGas", GAS_PRICE);
    g.writeStringField("difficulty", "0x0");
    g.writeStringField("extraData", "0x");
    g.writeStringField("gasLimit", BLOCK_GAS_LIMIT);
    g.writeStringField("gasUsed", Abi.quantity(b.evmGasUsed));
    g.writeStringField("hash", b.ethHash());
    g.writeStringField("logsBloom", Hex.prefixed(b.logsBloom));
    g.writeStringField("miner", Abi.ZERO_ADDRESS);
    g.writeStringField("mixHash", ZERO_HASH);
    g.writeStringField("nonce", "0x0000000000000000");
    g.writeStringField("number", Abi.quantity(b.height));
    g.writeStringField("parentHash", b.lastBlockHash == null ? ZERO_HASH : Hex.prefixed(b.lastBlockHash));
    g.writeStringField("receiptsRoot", root(b, "receipts"));
    g.writeStringField("sha3Uncles", EMPTY_UNCLES);
    g.writeStringField("size", Abi.quantity(b.size));
    g.writeStringField("stateRoot", Hex.prefixed(stateRoot));
    g.writeStringField("timestamp", Abi.quantity(b.timeNanos / 1_000_000_000L));
    g.writeArrayFieldStart("transactions");
    for (int i = 0; i < b.evmTxs.size(); i++) {
      if (full) tx(g, b, i, chainIdHex);
      else g.writeString(b.evmTxs.get(i).evm.hash());
    }
    g.writeEndArray();
    g.writeStringField("transactionsRoot", root(b, "transactions"));
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
  public static void tx(JsonGenerator g, Block b, int i, String chainIdHex) throws IOException {
    EvmTx e = b.evmTxs.get(i).evm;
    g.writeStartObject();
    g.writeStringField("blockHash", b.ethHash());
    g.writeStringField("blockNumber", Abi.quantity(b.height));
    g.writeStringField("from", e.from().hex());
    g.writeStringField("gas", Abi.quantity(e.gas()));
    g.writeStringField("gasPrice", GAS_PRICE);
    g.writeStringField("maxFeePerGas", GAS_PRICE);
    g.writeStringField("maxPriorityFeePerGas", "0x0");
    g.writeStringField("hash", e.hash());
    g.writeStringField("input", e.input());
    g.writeStringField("nonce", Abi.quantity(e.nonce()));
    if (e.to() == null) g.writeNullField("to");
    else g.writeStringField("to", e.to());
    g.writeStringField("transactionIndex", Abi.quantity(i));
    g.writeStringField("value", Abi.quantity(e.value()));
    g.writeStringField("type", "0x2");
    g.writeArrayFieldStart("accessList");
    g.writeEndArray();
    g.writeStringField("chainId", chainIdHex);
    g.writeStringField("v", e.yParity());
    g.writeStringField("r", e.r());
    g.writeStringField("s", e.s());
    g.writeStringField("yParity", e.yParity());
    g.writeEndObject();
  }

  /** The receipt of the i-th EVM tx of the block. */
  public static void receipt(JsonGenerator g, Block b, int i) throws IOException {
    Tx tx = b.evmTxs.get(i);
    EvmTx e = tx.evm;
    g.writeStartObject();
    g.writeStringField("blockHash", b.ethHash());
    g.writeStringField("blockNumber", Abi.quantity(b.height));
    if (e.contractAddress() == null) g.writeNullField("contractAddress");
    else g.writeStringField("contractAddress", e.contractAddress());
    g.writeStringField("cumulativeGasUsed", Abi.quantity(b.cumulativeGas[i]));
    g.writeStringField("effectiveGasPrice", GAS_PRICE);
    g.writeStringField("from", e.from().hex());
    g.writeStringField("gasUsed", Abi.quantity(e.gasUsed()));
    g.writeArrayFieldStart("logs");
    int logIndex = b.firstLogIndex[i];
    for (EvmLog l : e.logs()) log(g, l, b, e.hash(), i, logIndex++);
    g.writeEndArray();
    g.writeStringField("logsBloom", Hex.prefixed(e.bloom()));
    g.writeStringField("status", e.status() ? "0x1" : "0x0");
    if (e.to() == null) g.writeNullField("to");
    else g.writeStringField("to", e.to());
    g.writeStringField("transactionHash", e.hash());
    g.writeStringField("transactionIndex", Abi.quantity(i));
    g.writeStringField("type", "0x2");
    g.writeEndObject();
  }

  static void log(JsonGenerator g, EvmLog l, Block b, String txHash, int txIndex, int logIndex) throws IOException {
    g.writeStartObject();
    g.writeStringField("address", l.address());
    g.writeArrayFieldStart("topics");
    for (String t : l.topics()) g.writeString(t);
    g.writeEndArray();
    g.writeStringField("data", l.data());
    g.writeStringField("blockNumber", Abi.quantity(b.height));
    g.writeStringField("transactionHash", txHash);
    g.writeStringField("transactionIndex", Abi.quantity(txIndex));
    g.writeStringField("blockHash", b.ethHash());
    g.writeStringField("logIndex", Abi.quantity(logIndex));
    g.writeBooleanField("removed", false);
    g.writeEndObject();
  }

  /** A callTracer frame: from, gas, gasUsed, to, input, output?, error?, revertReason?, calls?, value?, type. */
  public static void frame(JsonGenerator g, CallFrame f, boolean onlyTop) throws IOException {
    g.writeStartObject();
    g.writeStringField("from", f.from());
    g.writeStringField("gas", Abi.quantity(f.gas()));
    g.writeStringField("gasUsed", Abi.quantity(f.gasUsed()));
    g.writeStringField("to", f.to());
    g.writeStringField("input", f.input());
    if (f.output() != null) g.writeStringField("output", f.output());
    if (f.error() != null) g.writeStringField("error", f.error());
    if (f.revertReason() != null) g.writeStringField("revertReason", f.revertReason());
    if (!onlyTop && f.calls() != null && !f.calls().isEmpty()) {
      g.writeArrayFieldStart("calls");
      for (CallFrame c : f.calls()) frame(g, c, false);
      g.writeEndArray();
    }
    if (f.value() != null) g.writeStringField("value", f.value());
    g.writeStringField("type", f.type());
    g.writeEndObject();
  }

  /**
   * One entry of {@code debug_traceBlock*}: the frame of an EVM tx, or minievm's error for a Cosmos tx that is not a
   * single EVM call (named by 0x + its Cosmos hash).
   */
  public static void traceEntry(JsonGenerator g, Tx tx, String chainId, boolean onlyTop) throws IOException {
    g.writeStartObject();
    g.writeStringField("txHash", tx.ethHash());
    if (tx.evm != null) {
      g.writeFieldName("result");
      frame(g, tx.evm.frame(), onlyTop);
    } else {
      g.writeStringField("error", cosmosTraceError(tx, chainId));
    }
    g.writeEndObject();
  }

  static String cosmosTraceError(Tx tx, String chainId) {
    return "signature verification failed; please verify account number (" + tx.signer.accountNumber() + ") and chain-id ("
        + chainId + "): (failed to get ethereum tx from context): unauthorized: incorrect number of top-level calls";
  }
}
