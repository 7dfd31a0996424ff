package dev.weft.devnet.dex;

import dev.weft.chain.Hex;
import dev.weft.devnet.exec.Bank;
import dev.weft.devnet.exec.EventLog;
import dev.weft.devnet.exec.ExecError;
import dev.weft.devnet.exec.MsgContext;
import dev.weft.devnet.exec.MsgModule;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Base64;
import java.util.List;

/**
 * Move {@code MsgExecute} on the devnet L1: {@code 0x1::dex::swap_script(pair, offer_coin, offer_coin_amount,
 * min_return)} and {@code 0x1::stableswap::swap_script(pool, offer_coin_metadata, return_coin_metadata, offer_amount,
 * min_return_amount)} run against the current balances (arguments in BCS); a swap returning less than
 * {@code min_return} aborts with the module's {@code EMIN_RETURN} (code 196611) and the tx fails (codespace
 * {@code move}) without moving the pool. A successful swap emits the module's {@code SwapEvent} as a {@code move} event
 * ({@code type_tag}, {@code data}). Skip's entry point {@code swap_and_action} runs too ({@link EntryPoint}), also from an
 * ibc-hooks memo. Other Move calls are recorded, not run. Swaps of one tx are checked against the balances before the tx.
 */
public final class DexModule implements MsgModule {
    /** Codespace and code of a Move abort in a tx result. */
    public static final String CODESPACE = "move";

    public static final int ABORT_CODE = 2;

    private final String execute;
    private final Dex dex;
    private final EntryPoint entryPoint;

    /** @param entryPointAddress where Skip's Move entry point is deployed on the chain (null when it is not) */
    public DexModule(String executeTypeUrl, Dex dex, String entryPointAddress) {
        this.execute = executeTypeUrl;
        this.dex = dex;
        this.entryPoint = new EntryPoint(entryPointAddress, this);
    }

    @Override
    public List<String> types() {
        return List.of(execute);
    }

    private record Swap(boolean stable, String pool, String offer, String ret, long amount, Long minReturn) {}

    @Override
    public void check(MsgContext ctx, String typeUrl, JsonObject msg) {
        if (entryPoint.calls(msg)) {
            entryPoint.check(ctx, msg);
            return;
        }
        Swap s = swap(msg);
        if (s == null) return;
        try {
            long out = simulate(ctx, s.stable(), s.pool(), s.offer(), s.ret(), s.amount());
            if (s.minReturn() != null && s.minReturn() > out) {
                throw MoveAbort.invalidState(s.stable() ? StablePool.MODULE : WeightedPair.MODULE, 3);
            }
        } catch (MoveAbort | ArithmeticException e) {
            throw abort(e, s.stable() ? StablePool.MODULE : WeightedPair.MODULE);
        }
    }

    /** A Move abort (or a u64 overflow, an arithmetic error of {@code module}) as the tx result's error. */
    static ExecError abort(RuntimeException e, String module) {
        String message = e instanceof MoveAbort ? e.getMessage() : new MoveAbort(module, 0x20000).getMessage();
        return new ExecError(CODESPACE, ABORT_CODE, message);
    }

    @Override
    public byte[] execute(MsgContext ctx, String typeUrl, JsonObject msg, EventLog log) {
        if (entryPoint.calls(msg)) {
            entryPoint.execute(ctx, msg, log);
            return new byte[0];
        }
        Swap s = swap(msg);
        if (s == null) return new byte[0];
        swap(
                ctx,
                msg.getString("sender", ""),
                s.stable(),
                s.pool(),
                s.offer(),
                s.ret(),
                s.amount(),
                s.minReturn(),
                log);
        return new byte[0];
    }

    /**
     * The return amount (after fees) of offering {@code amount} of {@code offer} to a pool at the current balances;
     * {@code ret} names the return coin of a stableswap pool (a pair's is its other coin).
     */
    long simulate(MsgContext ctx, boolean stable, String pool, String offer, String ret, long amount) {
        if (stable) {
            long[] r = pool(pool).simulate(offer, ret, amount);
            return r[0] - r[1];
        }
        WeightedPair p = pair(pool);
        return p.simulate(offerA(p, offer), amount, ctx.timeNanos() / 1_000_000_000L)[0];
    }

    /** The coin a pool returns for {@code offer} (a stableswap pool's is named by {@code ret}). */
    String returnCoin(boolean stable, String pool, String offer, String ret) {
        return stable ? ret : otherCoin(pair(pool), offer);
    }

    /**
     * Executes one swap of {@code sender}'s coins: the pool's balances move, the module's {@code SwapEvent}, and the coins
     * between the sender and the pool's object account. Returns the amount returned.
     */
    long swap(
            MsgContext ctx,
            String sender,
            boolean stable,
            String poolAddress,
            String offer,
            String ret,
            long amount,
            Long minReturn,
            EventLog log) {
        String pool;
        long out;
        long fee;
        if (stable) {
            StablePool p = pool(poolAddress);
            long[] r = p.simulate(offer, ret, amount);
            out = p.swap(offer, ret, amount, minReturn);
            fee = r[1];
            pool = p.address;
        } else {
            WeightedPair p = pair(poolAddress);
            long[] r = p.swap(offerA(p, offer), amount, minReturn, ctx.timeNanos() / 1_000_000_000L);
            out = r[0];
            fee = r[1];
            pool = p.liquidityToken;
        }
        String retMeta = returnCoin(stable, poolAddress, offer, ret);
        JsonObject data = new JsonObject()
                .put("offer_coin", MoveViews.literal(offer))
                .put("return_coin", MoveViews.literal(retMeta))
                .put("liquidity_token", MoveViews.literal(pool))
                .put("offer_amount", Long.toString(amount))
                .put("return_amount", Long.toString(out))
                .put("fee_amount", Long.toString(fee));
        log.add(
                "move",
                "type_tag",
                "0x1::" + (stable ? StablePool.MODULE : WeightedPair.MODULE) + "::SwapEvent",
                "data",
                data.encode());
        // the coins move between the sender and the pool's object account, as the Move fungible store's
        // withdraw/deposit
        String poolAccount = dev.weft.chain.AccountAddress.of(
                        dev.weft.chain.Hex.decode(MoveViews.address(pool).substring(2)))
                .bech32(bech32Prefix(sender));
        Bank.send(log, sender, poolAccount, Bank.coin(Long.toString(amount), dex.denomOf(MoveViews.address(offer))));
        Bank.send(log, poolAccount, sender, Bank.coin(Long.toString(out), dex.denomOf(MoveViews.address(retMeta))));
        return out;
    }

    boolean isPair(String address) {
        return dex.pair(address) != null;
    }

    boolean isStablePool(String address) {
        return dex.pool(address) != null;
    }

    String denomOf(String metadata) {
        return dex.denomOf(metadata);
    }

    @Override
    public long gas(String typeUrl) {
        return 150_000;
    }

    private Swap swap(JsonObject msg) {
        String module = msg.getString("module_name", "");
        if (!"swap_script".equals(msg.getString("function_name"))
                || !(module.equals("dex") || module.equals("stableswap"))) return null;
        if (!MoveViews.address(msg.getString("module_address", "0x0")).equals(MoveViews.address("0x1"))) return null;
        JsonArray args = msg.getJsonArray("args", new JsonArray());
        boolean stable = module.equals("stableswap");
        int n = stable ? 5 : 4;
        if (args.size() != n)
            throw invalid("0x1::" + module + "::swap_script takes " + n + " arguments, got " + args.size());
        try {
            String pool = address(args.getString(0));
            String offer = address(args.getString(1));
            String ret = stable ? address(args.getString(2)) : null;
            long amount = u64(args.getString(stable ? 3 : 2));
            Long min = optionU64(args.getString(stable ? 4 : 3));
            if (stable ? dex.pool(pool) == null : dex.pair(pool) == null) {
                throw new ExecError(
                        CODESPACE,
                        ABORT_CODE,
                        "VM aborted: location=" + "0".repeat(63) + "1::" + module + ", code=393218: no pool at "
                                + MoveViews.literal(pool));
            }
            return new Swap(stable, pool, offer, ret, amount, min);
        } catch (IllegalArgumentException | ClassCastException e) {
            throw invalid("arguments of 0x1::" + module + "::swap_script do not decode: " + e.getMessage());
        }
    }

    private static ExecError invalid(String what) {
        return new ExecError(CODESPACE, ABORT_CODE, what);
    }

    private WeightedPair pair(String address) {
        return dex.pair(address);
    }

    private StablePool pool(String address) {
        return dex.pool(address);
    }

    private static boolean offerA(WeightedPair p, String offer) {
        if (offer.equals(p.coinA.metadata())) return true;
        if (offer.equals(p.coinB.metadata())) return false;
        throw MoveAbort.invalidArgument(WeightedPair.MODULE, 10);
    }

    private static String otherCoin(WeightedPair p, String offer) {
        return offer.equals(p.coinA.metadata()) ? p.coinB.metadata() : p.coinA.metadata();
    }

    private static byte[] bytes(String base64) {
        return Base64.getDecoder().decode(base64);
    }

    private static String address(String base64) {
        byte[] b = bytes(base64);
        if (b.length != 32) throw new IllegalArgumentException("an address has 32 bytes");
        return Hex.prefixed(b);
    }

    private static long u64(String base64) {
        byte[] b = bytes(base64);
        if (b.length != 8) throw new IllegalArgumentException("a u64 has 8 bytes");
        return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }

    private static Long optionU64(String base64) {
        byte[] b = bytes(base64);
        if (b.length == 1 && b[0] == 0) return null;
        if (b.length != 9 || b[0] != 1)
            throw new IllegalArgumentException("an Option<u64> is 0x00 or 0x01 and 8 bytes");
        return ByteBuffer.wrap(b, 1, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }

    static String bech32Prefix(String address) {
        int sep = address.lastIndexOf('1');
        return sep > 0 ? address.substring(0, sep) : "init";
    }
}
