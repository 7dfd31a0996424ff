package dev.weft.devnet.world;

import dev.weft.chain.CosmosTx;
import dev.weft.devnet.exec.ChainApp;
import dev.weft.devnet.gen.Block;
import dev.weft.devnet.gen.DevnetChain;
import dev.weft.devnet.gen.Tx;
import dev.weft.devnet.mempool.Broadcaster;
import dev.weft.devnet.mempool.Mempool;
import dev.weft.devnet.gen.Accounts;
import dev.weft.devnet.tx.DecodedTx;
import dev.weft.devnet.tx.DirectSign;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * One chain of the devnet: its blocks (generated or quiet), the application that executes submitted txs, and its
 * mempool. Producing a block takes the bots' txs due at its time, then the queued user txs, executes them in that
 * order and appends them to the block.
 */
public final class ChainNode implements Broadcaster {
  private static final long CHECK_GAS = 40_000;

  private final DevnetChain chain;
  private final ChainApp app;
  private final Mempool mempool;
  private final int maxBlockTxs;
  private final boolean live;
  private final boolean verifySignatures;

  /** @param verifySignatures whether CheckTx verifies signatures and sequences (benches may turn it off) */
  ChainNode(DevnetChain chain, ChainApp app, int maxBlockTxs, boolean live, boolean verifySignatures) {
    this.chain = chain;
    this.app = app;
    this.maxBlockTxs = maxBlockTxs;
    this.mempool = new Mempool(maxBlockTxs * 10);
    this.live = live;
    this.verifySignatures = verifySignatures;
  }

  public String chainId() {
    return chain.spec().chainId();
  }

  public DevnetChain chain() {
    return chain;
  }

  public ChainApp app() {
    return app;
  }

  public Mempool mempool() {
    return mempool;
  }

  @Override
  public Submission submit(byte[] raw) {
    if (!live) throw new Mempool.Refused("the devnet runs in history mode: no block will include a submitted tx");
    DecodedTx d;
    try {
      d = DecodedTx.decode(raw, app.types(), app.validAddress());
    } catch (DecodedTx.Rejected r) {
      return rejected(raw, r);
    }
    if (mempool.contains(d.hash()) || chain.findTx(dev.weft.chain.Hex.decode(d.hash())) != null) {
      throw new Mempool.Refused("tx already exists in cache");
    }
    Accounts accounts = chain.accounts();
    // check, queue and increment under one lock: two txs of one account never pass with the same sequence
    synchronized (accounts) {
      List<byte[]> signers;
      try {
        signers = verifySignatures ? DirectSign.check(d, chainId(), accounts, false) : List.of();
      } catch (DecodedTx.Rejected r) {
        return rejected(raw, r);
      }
      var included = mempool.add(d);
      for (byte[] s : signers) accounts.checked(s);
      return new Submission(d.hash(), 0, "", "", d.tx().fee().gasLimit(), CHECK_GAS, included);
    }
  }

  private static Submission rejected(byte[] raw, DecodedTx.Rejected r) {
    return new Submission(CosmosTx.hash(raw), r.code, r.codespace, r.getMessage(), gasLimit(raw), 0, null);
  }

  @Override
  public long simulate(byte[] raw) {
    DecodedTx d = DecodedTx.decode(raw, app.types(), app.validAddress());
    // Simulate runs the ante handler on the check state without verifying signatures: accounts and sequences count
    if (verifySignatures) DirectSign.check(d, chainId(), chain.accounts(), true);
    return app.gasWanted(d);
  }

  @Override
  public long[] pending() {
    synchronized (mempool) {
      return new long[] {mempool.size(), mempool.bytes()};
    }
  }

  private static long gasLimit(byte[] raw) {
    try {
      return CosmosTx.decode(raw).fee().gasLimit();
    } catch (RuntimeException e) {
      return 0;
    }
  }

  /**
   * Produces the next block. {@code bots} gives the relayer's and executor's txs for (height, time); they run first.
   */
  Block produce(BiFunction<Long, Long, List<byte[]>> bots) {
    long h = chain.head() + 1;
    long t = chain.blockTimeNanos(h);
    List<Tx> executed = new ArrayList<>();
    for (byte[] raw : bots.apply(h, t)) {
      executed.add(app.deliver(DecodedTx.decode(raw, app.types(), s -> true), h, t));
    }
    List<Mempool.Entry> user = mempool.take(maxBlockTxs);
    for (Mempool.Entry e : user) executed.add(app.deliver(e.tx(), h, t));
    Block b = chain.advance(executed);
    int firstUser = b.txs.size() - user.size();
    for (int i = 0; i < user.size(); i++) user.get(i).included().tryComplete(new Mempool.Included(b.txs.get(firstUser + i), h));
    return b;
  }
}
