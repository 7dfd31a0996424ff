package dev.weft.route.msgs;

import dev.weft.chain.Hex;
import dev.weft.route.registry.Denoms;
import dev.weft.route.registry.SwapVenue;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * The Cosmos messages of routes as amino/snake-case JSON (what {@code cosmos_tx.msgs[].msg} carries as a string):
 * ICS-20 {@code MsgTransfer} (with a packet-forward memo), OPinit {@code MsgInitiateTokenDeposit} and
 * {@code MsgInitiateTokenWithdrawal}, Move {@code MsgExecute} of InitiaDEX's swap entry functions, minievm {@code MsgCall}.
 */
public final class CosmosMsgs {
    public static final String TRANSFER = "/ibc.applications.transfer.v1.MsgTransfer";
    public static final String DEPOSIT = "/opinit.ophost.v1.MsgInitiateTokenDeposit";
    public static final String WITHDRAWAL = "/opinit.opchild.v1.MsgInitiateTokenWithdrawal";
    public static final String EXECUTE = "/initia.move.v1.MsgExecute";
    public static final String EVM_CALL = "/minievm.evm.v1.MsgCall";
    public static final String SEND = "/cosmos.bank.v1beta1.MsgSend";
    /** PFM retries on timeout (Skip's default). */
    static final int PFM_RETRIES = 2;

    private CosmosMsgs() {}

    /** A message: its type URL and its JSON value. */
    public record Msg(String typeUrl, JsonObject value) {
        public JsonObject json() {
            return new JsonObject().put("msg_type_url", typeUrl).put("msg", value.encode());
        }

        /** The proto-JSON form with {@code @type} that minievm's {@code execute_cosmos} takes. */
        public String withType() {
            JsonObject o = new JsonObject().put("@type", typeUrl);
            value.forEach(e -> o.put(e.getKey(), e.getValue()));
            return o.encode();
        }
    }

    public static Msg transfer(
            String port,
            String channel,
            String denom,
            BigInteger amount,
            String sender,
            String receiver,
            long timeoutTimestampNanos,
            String memo) {
        return new Msg(
                TRANSFER,
                new JsonObject()
                        .put("source_port", port)
                        .put("source_channel", channel)
                        .put("token", coin(denom, amount))
                        .put("sender", sender)
                        .put("receiver", receiver)
                        .put(
                                "timeout_height",
                                new JsonObject().put("revision_number", "0").put("revision_height", "0"))
                        .put("timeout_timestamp", timeoutTimestampNanos)
                        .put("memo", memo));
    }

    /** A packet-forward-middleware hop: {@code {"forward":{receiver, port, channel, timeout, retries, next?}}}. */
    public static JsonObject forward(String receiver, String port, String channel, String timeout, JsonObject next) {
        JsonObject f = new JsonObject()
                .put("receiver", receiver)
                .put("port", port)
                .put("channel", channel)
                .put("timeout", timeout)
                .put("retries", PFM_RETRIES);
        if (next != null) f.put("next", next);
        return new JsonObject().put("forward", f);
    }

    /** A bank send (the affiliate fee). */
    public static Msg send(String from, String to, String denom, BigInteger amount) {
        return new Msg(
                SEND,
                new JsonObject()
                        .put("from_address", from)
                        .put("to_address", to)
                        .put("amount", new JsonArray().add(coin(denom, amount))));
    }

    public static Msg deposit(String sender, long bridgeId, String to, String denom, BigInteger amount, String data) {
        return new Msg(
                DEPOSIT,
                new JsonObject()
                        .put("sender", sender)
                        .put("bridge_id", Long.toString(bridgeId))
                        .put("to", to)
                        .put("amount", coin(denom, amount))
                        .put("data", data));
    }

    public static Msg withdrawal(String sender, String to, String denom, BigInteger amount) {
        return new Msg(
                WITHDRAWAL, new JsonObject().put("sender", sender).put("to", to).put("amount", coin(denom, amount)));
    }

    /**
     * InitiaDEX swap through one pool, with {@code min_return}: {@code 0x1::dex::swap_script(pair, offer_coin,
     * offer_coin_amount, min_return)} for weighted (constant-product) pairs, {@code 0x1::stableswap::swap_script(pool,
     * offer_coin_metadata, return_coin_metadata, offer_amount, min_return_amount)} for stableswap pools.
     */
    public static Msg swap(
            String sender,
            SwapVenue.Pool pool,
            String denomIn,
            String denomOut,
            BigInteger amount,
            BigInteger minReturn) {
        byte[] poolObject = Denoms.moveMetadata(pool.pool());
        JsonArray args = new JsonArray().add(Bcs.address(poolObject)).add(Bcs.address(Denoms.moveMetadata(denomIn)));
        String module;
        if (pool.type() == SwapVenue.PoolType.STABLESWAP) {
            module = "stableswap";
            args.add(Bcs.address(Denoms.moveMetadata(denomOut)));
        } else {
            module = "dex";
        }
        args.add(Bcs.u64(amount)).add(Bcs.someU64(minReturn));
        return new Msg(
                EXECUTE,
                new JsonObject()
                        .put("sender", sender)
                        .put("module_address", "0x1")
                        .put("module_name", module)
                        .put("function_name", "swap_script")
                        .put("type_args", new JsonArray())
                        .put("args", args));
    }

    /** Skip's Move entry point: module and function an ibc-hooks memo calls to swap on arrival. */
    public static final String ENTRY_POINT_MODULE = "entry_point";

    public static final String SWAP_AND_ACTION = "swap_and_action";
    /** {@code swap_and_action} venues, swap function and post-swap action (initia-labs/skipapi-move-integration). */
    static final int VENUE_INITIA_DEX = 0;

    static final int VENUE_INITIA_STABLESWAP = 1;
    static final int SWAP_EXACT_ASSET_IN = 0;
    static final int POST_ACTION_TRANSFER = 0;

    /**
     * The receiver an ibc-hooks transfer must name: the function identifier {@code module_address::module_name::function_name}
     * (initia-labs/initia {@code x/ibc-hooks/move-hooks}: the hook refuses any other receiver and credits the coins to its
     * intermediate account instead).
     */
    public static String hookReceiver(String entryPoint) {
        return entryPoint + "::" + ENTRY_POINT_MODULE + "::" + SWAP_AND_ACTION;
    }

    /**
     * The ICS-20 memo of a Move ibc-hooks swap on arrival: {@code {"move":{"message":{module_address, module_name,
     * function_name, type_args, args}}}} calling {@code entry_point::swap_and_action(venues, function, amount_in,
     * amount_out, pools, coins, post_action, timeout_timestamp, recover_address, post_action_args)} (BCS arguments, base64):
     * swap {@code amountIn} exactly through the pools (each a run of one venue), abort below {@code minOut}, then transfer
     * the output to {@code recipient}. A failed call makes the hook answer an error acknowledgement, so the source chain
     * refunds the sender.
     *
     * @param pools the pools in order; {@code denoms} has one more entry: the coin entering each pool, then the output
     */
    public static JsonObject moveHookSwap(
            String entryPoint,
            List<SwapVenue.Pool> pools,
            List<String> denoms,
            BigInteger amountIn,
            BigInteger minOut,
            String recipient,
            long timeoutTimestampNanos) {
        return new JsonObject()
                .put(
                        "move",
                        new JsonObject()
                                .put(
                                        "message",
                                        swapAndActionCall(
                                                entryPoint,
                                                pools,
                                                denoms,
                                                amountIn,
                                                minOut,
                                                recipient,
                                                timeoutTimestampNanos)));
    }

    /**
     * A {@code MsgExecute} of the entry point's {@code swap_and_action} signed by {@code sender}: swaps through the pools
     * (one call, whatever their number) and sends the output to {@code recipient}.
     */
    public static Msg swapAndAction(
            String sender,
            String entryPoint,
            List<SwapVenue.Pool> pools,
            List<String> denoms,
            BigInteger amountIn,
            BigInteger minOut,
            String recipient,
            long timeoutTimestampNanos) {
        JsonObject call =
                swapAndActionCall(entryPoint, pools, denoms, amountIn, minOut, recipient, timeoutTimestampNanos);
        JsonObject value = new JsonObject().put("sender", sender);
        call.forEach(e -> value.put(e.getKey(), e.getValue()));
        return new Msg(EXECUTE, value);
    }

    private static JsonObject swapAndActionCall(
            String entryPoint,
            List<SwapVenue.Pool> pools,
            List<String> denoms,
            BigInteger amountIn,
            BigInteger minOut,
            String recipient,
            long timeoutTimestampNanos) {
        ByteArrayOutputStream venues = new ByteArrayOutputStream();
        List<List<String>> poolRuns = new ArrayList<>();
        List<List<String>> coinRuns = new ArrayList<>();
        SwapVenue.PoolType current = null;
        for (int i = 0; i < pools.size(); i++) {
            SwapVenue.Pool p = pools.get(i);
            if (p.type() != current) {
                current = p.type();
                venues.write(current == SwapVenue.PoolType.STABLESWAP ? VENUE_INITIA_STABLESWAP : VENUE_INITIA_DEX);
                poolRuns.add(new ArrayList<>());
                coinRuns.add(new ArrayList<>(List.of(denoms.get(i))));
            }
            poolRuns.get(poolRuns.size() - 1).add(p.pool());
            coinRuns.get(coinRuns.size() - 1).add(denoms.get(i + 1));
        }
        JsonArray args = new JsonArray()
                .add(Bcs.bytes(venues.toByteArray()))
                .add(Bcs.u8(SWAP_EXACT_ASSET_IN))
                .add(Bcs.u64(amountIn))
                .add(Bcs.u64(minOut))
                .add(Bcs.stringVectors(poolRuns))
                .add(Bcs.stringVectors(coinRuns))
                .add(Bcs.u8(POST_ACTION_TRANSFER))
                .add(Bcs.u64(BigInteger.valueOf(timeoutTimestampNanos)))
                .add(Bcs.string(recipient))
                .add(Bcs.vectorOfStringBytes(List.of(recipient)));
        return new JsonObject()
                .put("module_address", entryPoint)
                .put("module_name", ENTRY_POINT_MODULE)
                .put("function_name", SWAP_AND_ACTION)
                .put("type_args", new JsonArray())
                .put("args", args);
    }

    public static Msg evmCall(String sender, String contract, byte[] input) {
        return new Msg(
                EVM_CALL,
                new JsonObject()
                        .put("sender", sender)
                        .put("contract_addr", contract)
                        .put("input", Hex.prefixed(input))
                        .put("value", "0")
                        .put("access_list", new JsonArray()));
    }

    private static JsonObject coin(String denom, BigInteger amount) {
        return new JsonObject().put("denom", denom).put("amount", amount.toString());
    }
}
