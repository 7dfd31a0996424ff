package dev.weft.devnet.gen;

import dev.weft.chain.CosmosTx;

import java.util.List;

/**
 * One rendered tx: its real TxRaw bytes and hash, the decoded parts the REST API prints, its ABCI result (code, log,
 * gas, events) and, for a single-call tx, its EVM view. Immutable once built.
 */
public final class Tx {
  public final TxPlan plan;
  /** Position in the block (= in {@code block.data.txs} and {@code txs_results}). */
  public final int index;
  public final byte[] raw;
  public final String rawBase64;
  /** Upper-case hex SHA-256 of {@link #raw}: the Cosmos tx hash. */
  public final String hash;
  public final List<Msg> msgs;
  public final String memo;
  public final Actor signer;
  public final long sequence;
  public final List<CosmosTx.Coin> fee;
  public final long gasLimit;
  public final String signatureBase64;
  public final int code;
  public final String codespace;
  public final String log;
  /** TxMsgData bytes; null for a failed tx. */
  public final byte[] data;
  public final long gasUsed;
  public final List<Event> events;
  /** The EVM view, or null for a Cosmos-only tx. */
  public final EvmTx evm;

  Tx(TxPlan plan, int index, byte[] raw, String rawBase64, String hash, List<Msg> msgs, String memo, Actor signer,
     long sequence, List<CosmosTx.Coin> fee, long gasLimit, String signatureBase64, int code, String codespace,
     String log, byte[] data, long gasUsed, List<Event> events, EvmTx evm) {
    this.plan = plan;
    this.index = index;
    this.raw = raw;
    this.rawBase64 = rawBase64;
    this.hash = hash;
    this.msgs = msgs;
    this.memo = memo;
    this.signer = signer;
    this.sequence = sequence;
    this.fee = fee;
    this.gasLimit = gasLimit;
    this.signatureBase64 = signatureBase64;
    this.code = code;
    this.codespace = codespace;
    this.log = log;
    this.data = data;
    this.gasUsed = gasUsed;
    this.events = events;
    this.evm = evm;
  }

  /** The hash by which EVM tooling names this tx: the EVM hash, or 0x + the Cosmos hash for a Cosmos-only tx. */
  public String ethHash() {
    return evm != null ? evm.hash() : "0x" + hash.toLowerCase(java.util.Locale.ROOT);
  }
}
