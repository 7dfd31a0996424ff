package dev.weft.devnet.dex;

import dev.weft.devnet.exec.Bank;
import dev.weft.devnet.exec.EventLog;
import dev.weft.devnet.exec.ExecError;
import dev.weft.devnet.exec.MsgContext;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Skip's Move entry point on the devnet L1 (initia-labs/skipapi-move-integration {@code entry_point.move}):
 * {@code <address>::entry_point::swap_and_action(venues: vector<u8>, function: u8, amount_in: u64, amount_out: u64,
 * pools: vector<vector<String>>, coins: vector<vector<String>>, post_action: u8, timeout_timestamp: u64,
 * recover_address: String, post_action_args: vector<vector<u8>>)}. Each venue (0 {@code initia_dex}, 1
 * {@code initia_stableswap}) swaps its run of pools (named by their LP denoms, {@code move/<object>}) with the coins of
 * the run (the input first, then the coin each pool returns); the last run aborts below {@code amount_out} with its
 * adaptor's {@code error::invalid_state(EMIN_AMOUNT)} (196610); then the output is transferred to the one address of
 * {@code post_action_args}. The devnet runs only exact-in swaps and the transfer action (other functions and actions
 * abort as invalid arguments).
 */
final class EntryPoint {
    static final String MODULE = "entry_point";
    static final String FUNCTION = "swap_and_action";
    private static final String DEX_ADAPTOR = "initia_dex";
    private static final String STABLE_ADAPTOR = "initia_stableswap";
    private static final int SWAP_EXACT_ASSET_IN = 0;
    private static final int POST_ACTION_TRANSFER = 0;
    private static final long ESWAP_INVALID_FUNCTION = 2;
    private static final long EINVALID_ASSET = 3;
    private static final long EINVALID_POST_ACTION = 5;
    private static final long EINVALID_SWAP_VENUE = 7;
    private static final long EINVALID_VENUE_LENGTH = 8;
    private static final long EINVALID_POOLS_LENGTH = 9;
    private static final long EINVALID_COINS_LENGTH = 10;
    private static final long EMIN_AMOUNT = 2;

    private final String address;
    private final DexModule dex;

    /** @param address where the entry point is deployed, or null when the chain has none */
    EntryPoint(String address, DexModule dex) {
        this.address = address == null ? null : MoveViews.address(address);
        this.dex = dex;
    }

    /** One swap of the plan: the pool, its kind, the coin offered and the coin returned (metadata addresses). */
    private record Step(boolean stable, String pool, String offer, String ret) {}

    /** A decoded call: its swaps, the amount offered, the minimum out and the recipient of the output. */
    private record Plan(List<Step> steps, long amountIn, long minOut, String adaptor, String recipient) {}

    boolean calls(JsonObject msg) {
        if (address == null
                || !MODULE.equals(msg.getString("module_name"))
                || !FUNCTION.equals(msg.getString("function_name"))) return false;
        try {
            return MoveViews.address(msg.getString("module_address", "")).equals(address);
        } catch (RuntimeException e) {
            return false;
        }
    }

    void check(MsgContext ctx, JsonObject msg) {
        Plan plan = plan(msg);
        try {
            long amount = plan.amountIn();
            for (Step s : plan.steps()) amount = dex.simulate(ctx, s.stable(), s.pool(), s.offer(), s.ret(), amount);
            if (amount < plan.minOut()) throw new MoveAbort(address, plan.adaptor(), 0x30000 | EMIN_AMOUNT);
        } catch (MoveAbort | ArithmeticException e) {
            throw e instanceof MoveAbort
                    ? new ExecError(DexModule.CODESPACE, DexModule.ABORT_CODE, e.getMessage())
                    : DexModule.abort(e, plan.adaptor());
        }
    }

    /** Runs a checked call: each swap against the current balances, then the output to the recipient. */
    void execute(MsgContext ctx, JsonObject msg, EventLog log) {
        Plan plan = plan(msg);
        String sender = msg.getString("sender", "");
        long amount = plan.amountIn();
        for (Step s : plan.steps())
            amount = dex.swap(ctx, sender, s.stable(), s.pool(), s.offer(), s.ret(), amount, null, log);
        String out = plan.steps().get(plan.steps().size() - 1).ret();
        Bank.send(log, sender, plan.recipient(), Bank.coin(Long.toString(amount), dex.denomOf(out)));
    }

    private Plan plan(JsonObject msg) {
        JsonArray args = msg.getJsonArray("args", new JsonArray());
        if (args.size() != 10) throw invalid(FUNCTION + " takes 10 arguments, got " + args.size());
        try {
            byte[] venues = new Reader(args.getString(0)).bytes();
            int function = new Reader(args.getString(1)).u8();
            long amountIn = new Reader(args.getString(2)).u64();
            long amountOut = new Reader(args.getString(3)).u64();
            List<List<String>> pools = new Reader(args.getString(4)).stringVectors();
            List<List<String>> coins = new Reader(args.getString(5)).stringVectors();
            int postAction = new Reader(args.getString(6)).u8();
            List<byte[]> actionArgs = new Reader(args.getString(9)).byteVectors();
            if (venues.length == 0) throw aborted(MODULE, 0x10000 | EINVALID_VENUE_LENGTH);
            if (pools.size() != venues.length) throw aborted(MODULE, 0x10000 | EINVALID_POOLS_LENGTH);
            if (coins.size() != venues.length) throw aborted(MODULE, 0x10000 | EINVALID_COINS_LENGTH);
            if (function != SWAP_EXACT_ASSET_IN) throw aborted(MODULE, 0x10000 | ESWAP_INVALID_FUNCTION);
            List<Step> steps = new ArrayList<>();
            String adaptor = DEX_ADAPTOR;
            String coinIn = Dex.metadataOf(coins.get(0).get(0));
            for (int v = 0; v < venues.length; v++) {
                boolean stable;
                if (venues[v] == 0) stable = false;
                else if (venues[v] == 1) stable = true;
                else throw aborted(MODULE, 0x10000 | EINVALID_SWAP_VENUE);
                adaptor = stable ? STABLE_ADAPTOR : DEX_ADAPTOR;
                List<String> run = coins.get(v);
                if (run.isEmpty() || !Dex.metadataOf(run.get(0)).equals(coinIn)) throw aborted(MODULE, EINVALID_ASSET);
                List<String> runPools = pools.get(v);
                for (int i = 0; i < runPools.size(); i++) {
                    String pool = Dex.metadataOf(runPools.get(i));
                    if (stable ? !dex.isStablePool(pool) : !dex.isPair(pool)) throw aborted(adaptor, 0x60000 | 2);
                    String ret = stable ? Dex.metadataOf(run.get(i + 1)) : null;
                    ret = dex.returnCoin(stable, pool, coinIn, ret);
                    steps.add(new Step(stable, pool, coinIn, ret));
                    coinIn = ret;
                }
                if (!Dex.metadataOf(run.get(run.size() - 1)).equals(coinIn)) throw aborted(MODULE, EINVALID_ASSET);
            }
            if (postAction != POST_ACTION_TRANSFER) throw aborted(MODULE, 0x10000 | EINVALID_POST_ACTION);
            if (actionArgs.size() != 1) throw aborted(MODULE, 0x10000);
            String recipient = new Reader(actionArgs.get(0)).string();
            return new Plan(steps, amountIn, amountOut, adaptor, recipient);
        } catch (MoveAbort e) {
            throw new ExecError(DexModule.CODESPACE, DexModule.ABORT_CODE, e.getMessage());
        } catch (IllegalArgumentException
                | IndexOutOfBoundsException
                | ClassCastException
                | java.nio.BufferUnderflowException e) {
            throw invalid("arguments of " + FUNCTION + " do not decode: " + e.getMessage());
        }
    }

    private MoveAbort aborted(String module, long code) {
        return new MoveAbort(address, module, code);
    }

    private static ExecError invalid(String what) {
        return new ExecError(DexModule.CODESPACE, DexModule.ABORT_CODE, what);
    }

    /** A BCS reader over one argument's bytes, which it must consume exactly. */
    private static final class Reader {
        private final ByteBuffer buf;

        Reader(String base64) {
            this(Base64.getDecoder().decode(base64));
        }

        Reader(byte[] bytes) {
            this.buf = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        }

        private int uleb128() {
            int value = 0;
            for (int shift = 0; shift < 32; shift += 7) {
                int b = buf.get() & 0xFF;
                value |= (b & 0x7F) << shift;
                if ((b & 0x80) == 0) return value;
            }
            throw new IllegalArgumentException("a ULEB128 length overflows");
        }

        private byte[] raw(int n) {
            if (n < 0 || n > buf.remaining()) throw new IllegalArgumentException("a length runs past the end");
            byte[] b = new byte[n];
            buf.get(b);
            return b;
        }

        private String str() {
            return new String(raw(uleb128()), StandardCharsets.UTF_8);
        }

        private <T> T end(T value) {
            if (buf.hasRemaining()) throw new IllegalArgumentException("trailing bytes");
            return value;
        }

        byte[] bytes() {
            return end(raw(uleb128()));
        }

        int u8() {
            return end(buf.get() & 0xFF);
        }

        long u64() {
            return end(buf.getLong());
        }

        String string() {
            return end(str());
        }

        List<List<String>> stringVectors() {
            int n = uleb128();
            List<List<String>> out = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int m = uleb128();
                List<String> inner = new ArrayList<>();
                for (int j = 0; j < m; j++) inner.add(str());
                out.add(inner);
            }
            return end(out);
        }

        List<byte[]> byteVectors() {
            int n = uleb128();
            List<byte[]> out = new ArrayList<>();
            for (int i = 0; i < n; i++) out.add(raw(uleb128()));
            return end(out);
        }
    }
}
