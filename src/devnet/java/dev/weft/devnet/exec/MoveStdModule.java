package dev.weft.devnet.exec;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.Hex;
import dev.weft.chain.MoveStores;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * Move {@code MsgExecute} of the standard library on a devnet Move chain, executed as movevm runs the modules (events
 * in their order, shapes as initia-labs/movevm's {@code coin.move}, {@code primary_fungible_store.move},
 * {@code object.move}, {@code collection.move} and {@code simple_nft.move} declare them):
 *
 * <ul>
 *   <li>{@code 0x1::coin::transfer(recipient, metadata, amount)} and
 *       {@code 0x1::primary_fungible_store::transfer<Metadata>(metadata, recipient, amount)}: the stores' withdrawal
 *       and deposit ({@link MoveCoinEvents}), the balances move;
 *   <li>{@code 0x1::object::transfer_call(object, to)} of a collection or an NFT the signer owns:
 *       {@code 0x1::object::TransferEvent {object, from, to}};
 *   <li>{@code 0x1::simple_nft::create_collection(description, max_supply, name, uri, …)}: the collection object's
 *       {@code CreateEvent} and {@code 0x1::collection::CreateCollectionEvent {collection, creator, name}} (the
 *       arguments after {@code uri} are not read);
 *   <li>{@code 0x1::simple_nft::mint(collection, description, token_id, token_uri, keys, types, values, to)} by the
 *       collection's creator: the NFT's {@code CreateEvent}, {@code 0x1::collection::MintEvent {collection, token_id,
 *       nft}}, and a {@code TransferEvent} to {@code to} when given.
 * </ul>
 *
 * Each is preceded by the {@code execute} event x/move emits. Any other call goes to {@code fallback} (the L1's DEX, or
 * recorded). A wrong call aborts as movevm does (codespace {@code move}, code 2, the module's error code).
 */
public final class MoveStdModule implements MsgModule {
    /** The bank balance change a Move coin transfer makes: (account, denom, signed amount). */
    public interface Balances {
        void add(String account, String denom, java.math.BigInteger amount);
    }

    private static final String CODESPACE = "move";
    private static final int ABORT = 2;

    private final String typeUrl;
    private final MsgModule fallback;
    private final String prefix;
    private final MoveCoinEvents coins;
    private final MoveObjects objects;
    private final Function<String, String> denomOfMetadata;
    private final Balances balances;

    /**
     * @param denomOfMetadata the chain's denom of a metadata address ({@code 0x} + 64 hex), null when unknown
     */
    public MoveStdModule(
            String typeUrl,
            MsgModule fallback,
            String prefix,
            MoveCoinEvents coins,
            MoveObjects objects,
            Function<String, String> denomOfMetadata,
            Balances balances) {
        this.typeUrl = typeUrl;
        this.fallback = fallback;
        this.prefix = prefix;
        this.coins = coins;
        this.objects = objects;
        this.denomOfMetadata = denomOfMetadata;
        this.balances = balances;
    }

    @Override
    public List<String> types() {
        return List.of(typeUrl);
    }

    private enum Fn {
        COIN_TRANSFER("coin", "transfer", 3),
        FA_TRANSFER("primary_fungible_store", "transfer", 3),
        OBJECT_TRANSFER("object", "transfer_call", 2),
        CREATE_COLLECTION("simple_nft", "create_collection", 4),
        MINT("simple_nft", "mint", 8);

        final String module;
        final String function;
        final int args;

        Fn(String module, String function, int args) {
            this.module = module;
            this.function = function;
            this.args = args;
        }
    }

    private static Fn fn(JsonObject msg) {
        String addr = Hex.strip(msg.getString("module_address", "")).replaceFirst("^0+", "");
        if (!addr.equals("1")) return null;
        for (Fn f : Fn.values()) {
            if (f.module.equals(msg.getString("module_name")) && f.function.equals(msg.getString("function_name")))
                return f;
        }
        return null;
    }

    /** A checked call: what it moves, decoded. */
    private record Call(
            Fn fn, byte[] sender, byte[] a, byte[] b, long amount, String s1, String s2, String s3, String s4) {}

    @Override
    public void check(MsgContext ctx, String typeUrl, JsonObject msg) {
        if (fn(msg) == null) fallback.check(ctx, typeUrl, msg);
        else decode(msg);
    }

    private Call decode(JsonObject msg) {
        Fn f = fn(msg);
        JsonArray args = msg.getJsonArray("args", new JsonArray());
        String where = "0x1::" + f.module + "::" + f.function;
        if (f == Fn.CREATE_COLLECTION ? args.size() < f.args : args.size() != f.args)
            throw new ExecError(CODESPACE, ABORT, where + " takes " + f.args + " arguments, got " + args.size());
        byte[] sender;
        Call c;
        try {
            sender = MoveStores.leftPad32(
                    AccountAddress.parse(msg.getString("sender", ""), prefix).bytes());
            c = switch (f) {
                case COIN_TRANSFER ->
                    new Call(
                            f,
                            sender,
                            MoveArgs.decodeAddress(args.getString(0)),
                            MoveArgs.decodeAddress(args.getString(1)),
                            MoveArgs.decodeU64(args.getString(2)),
                            null,
                            null,
                            null,
                            null);
                case FA_TRANSFER ->
                    new Call(
                            f,
                            sender,
                            MoveArgs.decodeAddress(args.getString(1)),
                            MoveArgs.decodeAddress(args.getString(0)),
                            MoveArgs.decodeU64(args.getString(2)),
                            null,
                            null,
                            null,
                            null);
                case OBJECT_TRANSFER ->
                    new Call(
                            f,
                            sender,
                            MoveArgs.decodeAddress(args.getString(0)),
                            MoveArgs.decodeAddress(args.getString(1)),
                            0,
                            null,
                            null,
                            null,
                            null);
                case CREATE_COLLECTION ->
                    new Call(
                            f,
                            sender,
                            null,
                            null,
                            0,
                            MoveArgs.decodeString(args.getString(0)),
                            MoveArgs.decodeString(args.getString(2)),
                            MoveArgs.decodeString(args.getString(3)),
                            null);
                case MINT ->
                    new Call(
                            f,
                            sender,
                            MoveArgs.decodeOptionAddress(args.getString(7)),
                            null,
                            0,
                            MoveArgs.decodeString(args.getString(0)),
                            MoveArgs.decodeString(args.getString(1)),
                            MoveArgs.decodeString(args.getString(2)),
                            MoveArgs.decodeString(args.getString(3)));
            };
        } catch (IllegalArgumentException | ClassCastException e) {
            throw new ExecError(CODESPACE, ABORT, "arguments of " + where + " do not decode: " + e.getMessage());
        }
        switch (f) {
            case COIN_TRANSFER, FA_TRANSFER -> {
                // a (recipient, metadata) call: b is the metadata
                if (denomOfMetadata.apply(Hex.prefixed(c.b())) == null)
                    throw abort("fungible_asset", 0x60001, "no fungible asset at " + MoveCoinEvents.literal(c.b()));
            }
            case OBJECT_TRANSFER -> {
                MoveObjects.Obj o = objects.get(c.a());
                if (o == null) throw abort("object", 0x60002, "no object at " + MoveCoinEvents.literal(c.a()));
                if (!Arrays.equals(o.owner(), sender)) throw abort("object", 0x50004, "the signer does not own it");
            }
            case CREATE_COLLECTION -> {
                if (objects.get(MoveObjects.collectionAddress(sender, c.s2())) != null)
                    throw abort("object", 0x80001, "collection " + c.s2() + " exists");
            }
            case MINT -> {
                MoveObjects.Obj coll = objects.get(MoveObjects.collectionAddress(sender, c.s1()));
                if (coll == null) throw abort("collection", 0x60001, "no collection " + c.s1() + " of the signer");
                if (objects.get(MoveObjects.nftAddress(sender, c.s1(), c.s3())) != null)
                    throw abort("object", 0x80001, "token " + c.s3() + " exists");
            }
        }
        return c;
    }

    private static ExecError abort(String module, int code, String why) {
        return new ExecError(
                CODESPACE,
                ABORT,
                "VM aborted: location=" + "0".repeat(63) + "1::" + module + ", code=" + code + ": " + why);
    }

    @Override
    public byte[] execute(MsgContext ctx, String typeUrl, JsonObject msg, EventLog log) {
        Fn f = fn(msg);
        if (f == null) return fallback.execute(ctx, typeUrl, msg, log);
        Call c = decode(msg);
        String sender = msg.getString("sender");
        switch (f) {
            case COIN_TRANSFER, FA_TRANSFER -> {
                String denom = denomOfMetadata.apply(Hex.prefixed(c.b()));
                String to = AccountAddress.of(account(c.a())).bech32(prefix);
                coins.userTransfer(log, f.module, f.function, sender, to, c.amount() + denom);
                java.math.BigInteger amount = java.math.BigInteger.valueOf(c.amount());
                balances.add(sender, denom, amount.negate());
                balances.add(to, denom, amount);
            }
            case OBJECT_TRANSFER -> {
                execute(log, sender, f);
                MoveObjects.Obj o = objects.get(c.a());
                transferEvent(log, o.address, o.owner(), c.b());
                o.transfer(c.b());
            }
            case CREATE_COLLECTION -> {
                execute(log, sender, f);
                MoveObjects.Obj o = objects.add(new MoveObjects.Obj(
                        MoveObjects.Kind.COLLECTION,
                        MoveObjects.collectionAddress(c.sender(), c.s2()),
                        c.sender(),
                        c.s2(),
                        c.s1(),
                        c.s3(),
                        null));
                createEvent(log, o);
                MoveCoinEvents.move(
                        log,
                        "0x1::collection::CreateCollectionEvent",
                        new JsonObject()
                                .put("collection", MoveCoinEvents.literal(o.address))
                                .put("creator", MoveCoinEvents.literal(o.creator))
                                .put("name", o.name));
            }
            case MINT -> {
                execute(log, sender, f);
                byte[] coll = MoveObjects.collectionAddress(c.sender(), c.s1());
                MoveObjects.Obj o = objects.add(new MoveObjects.Obj(
                        MoveObjects.Kind.NFT,
                        MoveObjects.nftAddress(c.sender(), c.s1(), c.s3()),
                        c.sender(),
                        c.s3(),
                        c.s2(),
                        c.s4(),
                        coll));
                createEvent(log, o);
                MoveCoinEvents.move(
                        log,
                        "0x1::collection::MintEvent",
                        new JsonObject()
                                .put("collection", MoveCoinEvents.literal(coll))
                                .put("token_id", o.name)
                                .put("nft", MoveCoinEvents.literal(o.address)));
                if (c.a() != null && !Arrays.equals(c.a(), c.sender())) {
                    transferEvent(log, o.address, c.sender(), c.a());
                    o.transfer(c.a());
                }
            }
        }
        return new byte[0];
    }

    /** The account of a 32-byte Move address: its last 20 bytes when the rest is zero (a Cosmos account), else all. */
    private static byte[] account(byte[] address32) {
        for (int i = 0; i < 12; i++) if (address32[i] != 0) return address32;
        return Arrays.copyOfRange(address32, 12, 32);
    }

    private void execute(EventLog log, String sender, Fn f) {
        log.add(
                "execute",
                "sender",
                MoveCoinEvents.literal(coins.moveAddress(sender)),
                "module_addr",
                "0x1",
                "module_name",
                f.module,
                "function_name",
                f.function);
    }

    private static void createEvent(EventLog log, MoveObjects.Obj o) {
        MoveCoinEvents.move(
                log,
                "0x1::object::CreateEvent",
                new JsonObject()
                        .put("object", MoveCoinEvents.literal(o.address))
                        .put("owner", MoveCoinEvents.literal(o.creator))
                        .put("version", "1"));
    }

    private static void transferEvent(EventLog log, byte[] object, byte[] from, byte[] to) {
        MoveCoinEvents.move(
                log,
                "0x1::object::TransferEvent",
                new JsonObject()
                        .put("object", MoveCoinEvents.literal(object))
                        .put("from", MoveCoinEvents.literal(from))
                        .put("to", MoveCoinEvents.literal(to)));
    }

    @Override
    public long gas(String typeUrl) {
        return fallback.gas(typeUrl); // one cost per type: the same as the calls the fallback runs
    }
}
