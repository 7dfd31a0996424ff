package dev.weft.devnet.lz;

import dev.weft.chain.Hex;
import dev.weft.chain.LayerZero;
import dev.weft.devnet.exec.ChainApp;
import dev.weft.devnet.gen.Abi;
import dev.weft.devnet.registry.DevnetRegistry;
import dev.weft.devnet.tx.MsgTypes;
import dev.weft.devnet.tx.SystemSigner;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The devnet's LayerZero DVNs and executor in one: a packet sent on a lane's source (reported by {@link LzSourceWatcher})
 * is delivered on the lane's destination chain in the first block at or after the height given, each in a tx of its
 * own signed by the executor's account: a minievm {@code MsgCall} of {@code lzReceive(origin, guid, message, executor,
 * "")} on the destination OFT, which {@link OftReceiveModule} executes. Runs on the devnet verticle's event loop.
 */
public final class LzExecutor {
    /** A verified packet waiting for its delivery block. */
    record Delivery(String chainId, String oft, LayerZero.OftPacket packet, long notBefore) {}

    private record Destination(String chainId, SystemSigner signer, byte[] executor, LongSupplier head) {}

    private final Map<String, Destination> destinations = new LinkedHashMap<>();
    private final Map<String, OftReceiveModule> modules = new LinkedHashMap<>();
    /** Source OFT (lower-case) and destination endpoint id → the lane's destination chain and OFT. */
    private final Map<String, String[]> routes = new LinkedHashMap<>();

    private final List<Delivery> queued = new ArrayList<>();

    /**
     * Serves a lane whose destination chain runs here: its OFT ({@code destinationOft}, crediting {@code lane.denomOut()})
     * answers the executor's {@code lzReceive} on that chain's application.
     */
    public void addLane(
            DevnetRegistry.Lane lane,
            String destinationOft,
            ChainApp app,
            String prefix,
            String feeDenom,
            long seed,
            LongSupplier head) {
        String chain = lane.toChainId();
        Destination d = destinations.computeIfAbsent(chain, c -> {
            SystemSigner signer = new SystemSigner("layerzero-executor", c, prefix, feeDenom, seed);
            return new Destination(
                    c,
                    signer,
                    dev.weft.chain.AccountAddress.parse(signer.address(), prefix)
                            .bytes(),
                    head);
        });
        OftReceiveModule m = modules.computeIfAbsent(chain, c -> {
            OftReceiveModule created = new OftReceiveModule(prefix, d.signer().address());
            app.add(created);
            return created;
        });
        m.addOft(destinationOft, lane.denomOut());
        routes.put(
                key(lane.sourceOftContract(), lane.destinationEndpointId()),
                new String[] {chain, destinationOft.toLowerCase(Locale.ROOT)});
    }

    /** Whether any lane's destination runs here. */
    public boolean serves() {
        return !routes.isEmpty();
    }

    /** The source OFT contracts of the lanes served (lower-case). */
    List<String> sourceOfts() {
        return routes.keySet().stream()
                .map(k -> k.substring(0, k.indexOf('/')))
                .distinct()
                .toList();
    }

    /**
     * Queues the delivery of a packet an OFT sent to {@code dstEid}, {@code delayBlocks} blocks of its destination from
     * now; false when no lane served here starts at that OFT for that endpoint.
     */
    boolean sent(String sourceOft, LayerZero.OftPacket packet, int delayBlocks) {
        String[] route = routes.get(key(sourceOft, packet.dstEid()));
        if (route == null) return false;
        Destination d = destinations.get(route[0]);
        queued.add(new Delivery(route[0], route[1], packet, d.head().getAsLong() + delayBlocks));
        return true;
    }

    /** The executor's txs for the block of {@code chainId} at {@code height}: one per delivery due. */
    public List<byte[]> due(String chainId, long height, long timeNanos) {
        Destination d = destinations.get(chainId);
        if (d == null || queued.isEmpty()) return List.of();
        List<byte[]> txs = new ArrayList<>();
        for (Iterator<Delivery> it = queued.iterator(); it.hasNext(); ) {
            Delivery q = it.next();
            if (!q.chainId().equals(chainId) || q.notBefore() > height) continue;
            it.remove();
            txs.add(d.signer()
                    .sign(List.of(new SystemSigner.Message(
                            MsgTypes.EVM_CALL,
                            new JsonObject()
                                    .put("sender", d.signer().address())
                                    .put("contract_addr", q.oft())
                                    .put("input", lzReceive(q.packet(), d.executor()))
                                    .put("value", "0")
                                    .put("access_list", new JsonArray())))));
        }
        return txs;
    }

    /**
     * {@code lzReceive((srcEid, sender, nonce), guid, message, executor, extraData)} calldata, {@code 0x} hex, laid out
     * by the Solidity ABI's rules: the static origin tuple inline (three words), the guid, the offset of the message,
     * the executor, the offset of the empty extra data, then each dynamic value as its length and its padded bytes. The
     * OFT message is the recipient (32 bytes) and the amount in shared decimals (uint64).
     */
    static String lzReceive(LayerZero.OftPacket p, byte[] executor) {
        byte[] message = new byte[40];
        System.arraycopy(p.sendTo(), 0, message, 0, 32);
        byte[] amount = p.amountSD().toByteArray();
        int len = Math.min(amount.length, 8);
        System.arraycopy(amount, amount.length - len, message, 40 - len, len);
        int heads = 7 * 32;
        int messageTail = 32 + 64; // length word, then 40 bytes padded to two words
        StringBuilder b = new StringBuilder(Abi.selector(LayerZero.LZ_RECEIVE));
        b.append(Abi.word(p.srcEid()))
                .append(Hex.lower(p.sender()))
                .append(Abi.word(p.nonce()))
                .append(Hex.lower(Hex.decode(p.guid())))
                .append(Abi.word(heads))
                .append(Abi.word(Hex.prefixed(executor)))
                .append(Abi.word(heads + messageTail))
                .append(Abi.word(message.length))
                .append(Hex.lower(message))
                .append("0".repeat(2 * (64 - message.length)))
                .append(Abi.word(0));
        return b.toString();
    }

    private static String key(String oft, long eid) {
        return oft.toLowerCase(Locale.ROOT) + "/" + eid;
    }
}
