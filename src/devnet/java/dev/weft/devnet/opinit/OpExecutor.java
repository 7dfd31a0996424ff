package dev.weft.devnet.opinit;

import dev.weft.chain.Hashes;
import dev.weft.devnet.tx.MsgTypes;
import dev.weft.devnet.tx.SystemSigner;
import io.vertx.core.json.JsonObject;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * A simulated OPinit executor for every bridge of the devnet: it finalizes each L1 deposit on its rollup
 * ({@code MsgFinalizeTokenDeposit}) in the rollup's first block at or after the deposit time + {@code delay}, and
 * proposes the rollup's output on the L1 ({@code MsgProposeOutput}, the L2 height it covers) every
 * {@code outputInterval} while the rollup grows. A withdrawal is claimable on the L1 once an output covering its L2
 * height is older than the bridge's finalization period (the tracker's view; claiming is not modelled).
 */
public final class OpExecutor implements OpListener {
    private record Bridge(long id, String l1ChainId, String l2ChainId, LongSupplier l2Head) {}

    private record Finalize(OpListener.Deposit deposit, long notBefore) {}

    private final long delayNanos;
    private final long outputIntervalNanos;
    private final Map<Long, Bridge> bridges = new LinkedHashMap<>();
    private final Map<String, SystemSigner> signers = new LinkedHashMap<>();
    private final Map<String, List<Finalize>> finalizations = new LinkedHashMap<>();
    private final Map<Long, long[]> outputs =
            new LinkedHashMap<>(); // bridge → {last output time, last covered L2 height, next output index}

    public OpExecutor(Duration delay, Duration outputInterval) {
        this.delayNanos = delay.toNanos();
        this.outputIntervalNanos = outputInterval.toNanos();
    }

    public void addSigner(String chainId, SystemSigner signer) {
        signers.put(chainId, signer);
    }

    public void addBridge(long id, String l1ChainId, String l2ChainId, LongSupplier l2Head) {
        bridges.put(id, new Bridge(id, l1ChainId, l2ChainId, l2Head));
        finalizations.putIfAbsent(l2ChainId, new ArrayList<>());
        outputs.put(id, new long[] {Long.MIN_VALUE, 0, 1});
    }

    @Override
    public void depositInitiated(Deposit d) {
        Bridge b = bridges.get(d.bridgeId());
        if (b != null) finalizations.get(b.l2ChainId()).add(new Finalize(d, d.timeNanos() + delayNanos));
    }

    @Override
    public void withdrawalInitiated(long bridgeId, long l2Sequence, long l2Height) {
        // outputs are proposed on a schedule; nothing to queue per withdrawal
    }

    /** The executor's txs for the block of {@code chainId} at {@code height} and {@code timeNanos}. */
    public List<byte[]> due(String chainId, long height, long timeNanos) {
        SystemSigner signer = signers.get(chainId);
        if (signer == null) return List.of();
        List<SystemSigner.Message> msgs = new ArrayList<>();
        List<Finalize> pending = finalizations.get(chainId);
        if (pending != null) {
            for (Iterator<Finalize> it = pending.iterator(); it.hasNext(); ) {
                Finalize f = it.next();
                if (f.notBefore() > timeNanos) continue;
                it.remove();
                OpListener.Deposit d = f.deposit();
                msgs.add(new SystemSigner.Message(
                        MsgTypes.FINALIZE_DEPOSIT,
                        new JsonObject()
                                .put("sender", signer.address())
                                .put("from", d.from())
                                .put("to", d.to())
                                .put(
                                        "amount",
                                        new JsonObject()
                                                .put("denom", d.l2Denom())
                                                .put("amount", d.amount()))
                                .put("sequence", Long.toString(d.l1Sequence()))
                                .put("height", Long.toString(d.l1Height()))
                                .put("base_denom", d.l1Denom())
                                .put("data", d.data())));
            }
        }
        for (Bridge b : bridges.values()) {
            if (!b.l1ChainId().equals(chainId)) continue;
            long[] last = outputs.get(b.id());
            long l2 = b.l2Head().getAsLong();
            if (l2 <= last[1] || (last[0] != Long.MIN_VALUE && timeNanos - last[0] < outputIntervalNanos)) continue;
            last[0] = timeNanos;
            last[1] = l2;
            msgs.add(new SystemSigner.Message(
                    MsgTypes.PROPOSE_OUTPUT,
                    new JsonObject()
                            .put("proposer", signer.address())
                            .put("bridge_id", Long.toString(b.id()))
                            .put("output_index", Long.toString(last[2]++))
                            .put("l2_block_number", Long.toString(l2))
                            .put("output_root", Base64.getEncoder().encodeToString(outputRoot(b.id(), l2)))));
        }
        return msgs.isEmpty() ? List.of() : List.of(signer.sign(msgs));
    }

    private static byte[] outputRoot(long bridgeId, long l2Height) {
        return Hashes.sha256(
                ByteBuffer.allocate(16).putLong(bridgeId).putLong(l2Height).array());
    }
}
