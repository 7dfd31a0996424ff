package dev.weft.devnet.traffic;

import dev.weft.devnet.exec.MoveArgs;
import dev.weft.devnet.exec.MoveObjects;
import dev.weft.devnet.gen.Mix;
import dev.weft.devnet.registry.ChainDenoms;
import dev.weft.devnet.tx.MsgTypes;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * The Move rollup's generated traffic: coin transfers ({@code 0x1::coin::transfer}), fungible-asset transfers
 * ({@code 0x1::primary_fungible_store::transfer}), bank sends, NFT collections and mints ({@code 0x1::simple_nft}),
 * NFT transfers and collection (object) transfers ({@code 0x1::object::transfer_call}). The generator follows the
 * NFTs it minted (the replay runs in height order), so each transfer is signed by the NFT's owner.
 */
public final class MoveTraffic extends Traffic {
    private final List<String> denoms;
    /** Per sender: whether its collection exists, its next token id, the NFTs (32-byte addresses) it owns. */
    private final boolean[] collection = new boolean[SENDERS];

    private final int[] nextToken = new int[SENDERS];
    private final List<List<byte[]>> owned = new ArrayList<>();
    /** Per sender: the collection objects it owns (its own at first). */
    private final List<List<byte[]>> collections = new ArrayList<>();

    /** @param denoms the bank denoms the senders hold (the first is the fee denom) */
    public MoveTraffic(
            String chainId,
            String prefix,
            List<String> denoms,
            long seed,
            int txsPerBlock,
            double emptyShare,
            long last) {
        super(chainId, prefix, denoms.get(0), seed, txsPerBlock, emptyShare, last);
        this.denoms = List.copyOf(denoms);
        for (int i = 0; i < SENDERS; i++) {
            owned.add(new ArrayList<>());
            collections.add(new ArrayList<>());
        }
    }

    static String collectionName(int sender) {
        return "Weft Move collection " + sender;
    }

    @Override
    protected byte[] tx(int sender, Mix.Rng rng, long h, long timeNanos) {
        double x = rng.unit();
        String from = senders[sender];
        byte[] me = move32(from, prefix);
        if (x < 0.3) {
            if (!collection[sender]) {
                collection[sender] = true;
                collections.get(sender).add(MoveObjects.collectionAddress(me, collectionName(sender)));
                return execute(
                        sender,
                        "simple_nft",
                        "create_collection",
                        List.of(),
                        new JsonArray()
                                .add(MoveArgs.string("NFTs of the devnet's generated traffic"))
                                .add(MoveArgs.empty())
                                .add(MoveArgs.string(collectionName(sender)))
                                .add(MoveArgs.string("https://weft.localhost/collections/" + sender))
                                .add(MoveArgs.bool(false))
                                .add(MoveArgs.bool(false))
                                .add(MoveArgs.bool(false))
                                .add(MoveArgs.bool(false))
                                .add(MoveArgs.bool(false))
                                .add(MoveArgs.bool(false))
                                .add(MoveArgs.empty()));
            }
            String token = Integer.toString(++nextToken[sender]);
            // half the mints stay with the creator, half go to another sender (so later transfers have owners)
            int to = rng.chance(0.5) ? sender : (sender + 1 + rng.below(SENDERS - 1)) % SENDERS;
            owned.get(to).add(MoveObjects.nftAddress(me, collectionName(sender), token));
            return execute(
                    sender,
                    "simple_nft",
                    "mint",
                    List.of(),
                    new JsonArray()
                            .add(MoveArgs.string(collectionName(sender)))
                            .add(MoveArgs.string("token " + token))
                            .add(MoveArgs.string(token))
                            .add(MoveArgs.string("https://weft.localhost/nfts/" + sender + "/" + token))
                            .add(MoveArgs.empty())
                            .add(MoveArgs.empty())
                            .add(MoveArgs.empty())
                            .add(to == sender ? MoveArgs.empty() : MoveArgs.someAddress(move32(senders[to], prefix))));
        }
        if (x < 0.45 && !owned.get(sender).isEmpty()) {
            List<byte[]> mine = owned.get(sender);
            byte[] nft = mine.remove(rng.below(mine.size()));
            // most go to other senders (kept in play); some to receive-only addresses (they stay there)
            String to;
            if (rng.chance(0.8)) {
                int other = (sender + 1 + rng.below(SENDERS - 1)) % SENDERS;
                owned.get(other).add(nft);
                to = senders[other];
            } else {
                to = receivers[rng.below(RECEIVERS)];
            }
            return transferObject(sender, nft, to);
        }
        if (x < 0.5 && !collections.get(sender).isEmpty()) {
            List<byte[]> mine = collections.get(sender);
            byte[] object = mine.remove(rng.below(mine.size()));
            int other = (sender + 1 + rng.below(SENDERS - 1)) % SENDERS;
            collections.get(other).add(object);
            return transferObject(sender, object, senders[other]);
        }
        String denom = denoms.get(rng.below(denoms.size()));
        String to = recipient(rng, sender);
        long amount = rng.between(1, 10_000_000);
        if (x < 0.7) {
            return execute(
                    sender,
                    "coin",
                    "transfer",
                    List.of(),
                    new JsonArray()
                            .add(MoveArgs.address(move32(to, prefix)))
                            .add(MoveArgs.address(ChainDenoms.moveMetadata(denom)))
                            .add(MoveArgs.u64(amount)));
        }
        if (x < 0.9) {
            return execute(
                    sender,
                    "primary_fungible_store",
                    "transfer",
                    List.of("0x1::fungible_asset::Metadata"),
                    new JsonArray()
                            .add(MoveArgs.address(ChainDenoms.moveMetadata(denom)))
                            .add(MoveArgs.address(move32(to, prefix)))
                            .add(MoveArgs.u64(amount)));
        }
        return sign(
                sender,
                msg(
                        MsgTypes.SEND,
                        new JsonObject()
                                .put("from_address", from)
                                .put("to_address", to)
                                .put(
                                        "amount",
                                        new JsonArray()
                                                .add(new JsonObject()
                                                        .put("denom", denom)
                                                        .put("amount", Long.toString(amount))))),
                "");
    }

    private byte[] transferObject(int sender, byte[] object, String to) {
        return execute(
                sender,
                "object",
                "transfer_call",
                List.of(),
                new JsonArray().add(MoveArgs.address(object)).add(MoveArgs.address(move32(to, prefix))));
    }

    private byte[] execute(int sender, String module, String function, List<String> typeArgs, JsonArray args) {
        return sign(
                sender,
                msg(
                        MsgTypes.EXECUTE,
                        new JsonObject()
                                .put("sender", senders[sender])
                                .put("module_address", "0x1")
                                .put("module_name", module)
                                .put("function_name", function)
                                .put("type_args", new JsonArray(typeArgs))
                                .put("args", args)),
                "");
    }
}
