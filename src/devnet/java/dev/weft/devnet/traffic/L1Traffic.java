package dev.weft.devnet.traffic;

import dev.weft.devnet.exec.MoveArgs;
import dev.weft.devnet.gen.Mix;
import dev.weft.devnet.registry.ChainDenoms;
import dev.weft.devnet.tx.MsgTypes;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The L1's generated traffic: x/bank {@code MsgSend}s of INIT and USDC, ICS-20 {@code MsgTransfer}s to the Move rollup
 * (relayed, received and acknowledged within the history: none in its last {@code relayMargin} blocks), and InitiaDEX
 * swaps ({@code MsgExecute} of {@code 0x1::dex::swap_script}) on the weighted pairs. The stableswap pool and the LBP
 * pair are left as genesis made them (tests read them), and no IBC transfer goes to weft-devnet-1, whose history stays
 * exactly its own generator's.
 */
public final class L1Traffic extends Traffic {
    private static final String[] DENOMS = {"uinit", "uusdc"};
    /** The weighted pairs the swaps use, with their two coins. */
    private static final String[][] PAIRS = {
        {"INIT-USDC", "uinit", "uusdc"}, {"INIT-USDC-80-20", "uinit", "uusdc"}, {"INIT-ETH", "uinit", "ueth"}
    };

    private final String channel;
    private final String counterpartyPrefix;
    private final long ibcLast;

    /**
     * @param channel the transfer channel to the Move rollup (null: no IBC transfers)
     * @param relayMargin blocks a packet needs to be received and acknowledged
     */
    public L1Traffic(
            String chainId,
            String prefix,
            String feeDenom,
            long seed,
            int txsPerBlock,
            double emptyShare,
            long last,
            String channel,
            String counterpartyPrefix,
            long relayMargin) {
        super(chainId, prefix, feeDenom, seed, txsPerBlock, emptyShare, last);
        this.channel = channel;
        this.counterpartyPrefix = counterpartyPrefix;
        this.ibcLast = last - relayMargin;
    }

    @Override
    protected byte[] tx(int sender, Mix.Rng rng, long h, long timeNanos) {
        double x = rng.unit();
        String from = senders[sender];
        if (x < 0.25 && channel != null && h <= ibcLast) {
            String denom = DENOMS[rng.below(DENOMS.length)];
            String to = dev.weft.chain.AccountAddress.parse(recipient(rng, sender), prefix)
                    .bech32(counterpartyPrefix);
            return sign(
                    sender,
                    msg(
                            MsgTypes.TRANSFER,
                            new JsonObject()
                                    .put("source_port", "transfer")
                                    .put("source_channel", channel)
                                    .put(
                                            "token",
                                            new JsonObject()
                                                    .put("denom", denom)
                                                    .put("amount", Long.toString(rng.between(1_000, 50_000_000))))
                                    .put("sender", from)
                                    .put("receiver", to)
                                    .put(
                                            "timeout_height",
                                            new JsonObject()
                                                    .put("revision_number", "0")
                                                    .put("revision_height", "0"))
                                    .put("timeout_timestamp", Long.toUnsignedString(timeNanos + 600_000_000_000L))
                                    .put("memo", "")),
                    "");
        }
        if (x < 0.6) {
            String[] pair = PAIRS[rng.below(PAIRS.length)];
            String offer = rng.chance(0.5) ? pair[1] : pair[2];
            long amount = rng.between(1_000, offer.equals("ueth") ? 200_000 : 5_000_000);
            JsonArray args = new JsonArray()
                    .add(MoveArgs.address(ChainDenoms.moveMetadata(chainId + "/initia-dex/" + pair[0])))
                    .add(MoveArgs.address(ChainDenoms.moveMetadata(offer)))
                    .add(MoveArgs.u64(amount))
                    .add(MoveArgs.empty());
            return sign(
                    sender,
                    msg(
                            MsgTypes.EXECUTE,
                            new JsonObject()
                                    .put("sender", from)
                                    .put("module_address", "0x1")
                                    .put("module_name", "dex")
                                    .put("function_name", "swap_script")
                                    .put("type_args", new JsonArray())
                                    .put("args", args)),
                    "");
        }
        String denom = DENOMS[rng.below(DENOMS.length)];
        return sign(
                sender,
                msg(
                        MsgTypes.SEND,
                        new JsonObject()
                                .put("from_address", from)
                                .put("to_address", recipient(rng, sender))
                                .put(
                                        "amount",
                                        new JsonArray()
                                                .add(new JsonObject()
                                                        .put("denom", denom)
                                                        .put("amount", Long.toString(rng.between(1, 100_000_000)))))),
                rng.chance(0.1) ? "weft l1 traffic" : "");
    }
}
