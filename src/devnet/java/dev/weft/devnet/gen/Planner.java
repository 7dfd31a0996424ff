package dev.weft.devnet.gen;

import dev.weft.devnet.gen.TxPlan.Kind;

/**
 * Decides what every tx does from (seed, global index) alone.
 *
 * <p>NFT lifecycles are scheduled by formula so that owners are computable at any height without replaying the chain:
 * regular tx slots are numbered u = g − genesis txs; a slot u ≡ 0 (mod {@link #M}) may be a mint (seeded coin), and
 * a mint at u is followed by its first transfer at u+K1, its second at u+K2 and its burn at u+K3 (those slots are
 * ≡ 1, 2, 3 mod M, reserved for it). Each step is signed by the owner, and the owner after a step is the signer of the
 * next step, so token id {@code u/M + 1} has a closed-form owner history.
 */
public final class Planner {
    public static final int M = 16;
    public static final long K1 = M * 5 + 1, K2 = M * 40 + 2, K3 = M * 300 + 3;
    /**
     * Gas price: 0.015 of the fee token's base unit (uinit) per gas, the registry's price for weft-devnet-1. The EVM
     * sees it in 18 decimals, as minievm scales the fee token: 0.015 × 10^12 = 15 gwei.
     */
    public static final long GAS_PRICE_MILLI = 15;

    public static final long EVM_GAS_PRICE = 15_000_000_000L;
    /** Genesis balance of every sender, in whole tokens. */
    public static final long GENESIS_TOKENS = 1_000_000_000L;

    public static final String[] REVERT_REASONS = {
        "Router: deadline passed", "Router: slippage too high", "Router: pool paused"
    };
    private static final String[] MEMOS = {"gm", "payment #42", "devnet test", "thanks!", "weft"};
    private static final long TAG_TX = 21, TAG_MINT = 22, TAG_COLLECTION = 23;

    private final long seed;
    private final Genesis genesis;
    private final Layout layout;
    private final int senders;
    private final int recipients;

    public Planner(Genesis genesis, Layout layout) {
        this.seed = genesis.spec().seed();
        this.genesis = genesis;
        this.layout = layout;
        this.senders = genesis.senderCount();
        this.recipients = genesis.recipientCount();
    }

    public TxPlan plan(long g) {
        TxPlan p = new TxPlan();
        p.g = g;
        Mix.Rng rng = new Mix.Rng(Mix.hash(seed, TAG_TX, g));
        if (g < Layout.GENESIS_TXS) return deploy(p, (int) g, rng);
        long u = g - Layout.GENESIS_TXS;
        p.sender = genesis.sender(u);
        p.sequence = genesis.sequence(u);
        int r = (int) (u % M);
        if (r == 0 && isMint(u)) nft(p, Kind.NFT_MINT, u, TxPlan.ZERO, ownerAfter(u, 0), rng);
        else if (r == 1 && isMint(u - K1)) nft(p, Kind.NFT_TRANSFER, u - K1, p.sender, ownerAfter(u - K1, 1), rng);
        else if (r == 2 && isMint(u - K2)) nft(p, Kind.NFT_TRANSFER, u - K2, p.sender, ownerAfter(u - K2, 2), rng);
        else if (r == 3 && isMint(u - K3)) nft(p, Kind.NFT_BURN, u - K3, p.sender, TxPlan.ZERO, rng);
        else fresh(p, rng);
        return p;
    }

    private TxPlan deploy(TxPlan p, int d, Mix.Rng rng) {
        p.kind = Kind.DEPLOY;
        p.deploy = d;
        p.sender = genesis.deployer().id();
        p.sequence = d;
        p.gasLimit = rng.between(2_000_000, 4_000_000);
        p.gasUsed = p.gasLimit * rng.between(70, 95) / 100;
        if (d < genesis.tokens().size()) {
            Token t = genesis.tokens().get(d);
            long perSender = t.genesisQuanta();
            for (int a = 0; a < senders; a++) p.erc20(d, TxPlan.ZERO, a, perSender);
        }
        return p;
    }

    private void nft(TxPlan p, Kind kind, long mintSlot, int from, int to, Mix.Rng rng) {
        p.kind = kind;
        p.nftId = mintSlot / M + 1;
        p.collection = collectionOf(p.nftId);
        p.nftFrom = from;
        p.nftTo = to;
        p.gasLimit = rng.between(150_000, 260_000);
        p.gasUsed = p.gasLimit * rng.between(55, 90) / 100;
        fee(p);
        p.effects.add(new TxPlan.Nft(p.collection, from, to, p.nftId));
    }

    private void fresh(TxPlan p, Mix.Rng rng) {
        double x = rng.unit();
        p.kind = x < 0.22
                ? Kind.BANK_SEND
                : x < 0.52
                        ? Kind.ERC20_TRANSFER
                        : x < 0.64
                                ? Kind.NATIVE_TRANSFER
                                : x < 0.76
                                        ? Kind.ROUTER_CALL
                                        : x < 0.84
                                                ? Kind.MULTI_MSG
                                                : x < 0.90
                                                        ? Kind.FAIL_REVERT
                                                        : x < 0.94 ? Kind.FAIL_OUT_OF_GAS : Kind.ERC20_TRANSFER;
        p.token = rng.below(genesis.tokens().size());
        p.recipient = recipient(rng);
        p.amount = rng.between(1, 1_000_000_000);
        if (rng.chance(0.1)) p.memo = MEMOS[rng.below(MEMOS.length)];
        switch (p.kind) {
            case BANK_SEND -> gas(p, rng, 90_000, 160_000, 60, 90);
            case ERC20_TRANSFER -> gas(p, rng, 60_000, 140_000, 50, 90);
            case NATIVE_TRANSFER -> {
                gas(p, rng, 40_000, 80_000, 55, 90);
                p.value = p.amount;
                p.token = 0;
            }
            case ROUTER_CALL -> {
                gas(p, rng, 600_000, 1_200_000, 50, 85);
                p.value = 2 * rng.between(1, 500_000_000);
            }
            case MULTI_MSG -> {
                gas(p, rng, 180_000, 300_000, 55, 90);
                p.token2 = rng.below(genesis.tokens().size());
                p.recipient2 = recipient(rng);
                p.amount2 = rng.between(1, 1_000_000_000);
            }
            case FAIL_REVERT -> {
                gas(p, rng, 200_000, 400_000, 25, 60);
                p.reason = rng.below(REVERT_REASONS.length);
            }
            default -> { // FAIL_OUT_OF_GAS
                p.gasLimit = rng.between(30_000, 60_000);
                p.gasUsed = p.gasLimit + rng.between(1, 8_000);
            }
        }
        fee(p);
        int s = p.sender;
        switch (p.kind) {
            case BANK_SEND, ERC20_TRANSFER -> p.erc20(p.token, s, p.recipient, p.amount);
            case NATIVE_TRANSFER -> p.erc20(0, s, p.recipient, p.value);
            case ROUTER_CALL -> {
                int router = genesis.router().id();
                p.erc20(0, s, router, p.value);
                p.erc20(0, router, p.recipient, p.value / 2);
                p.erc20(p.token, s, p.recipient, p.amount);
                p.erc20(0, router, p.recipient, p.value / 2);
            }
            case MULTI_MSG -> {
                p.erc20(p.token, s, p.recipient, p.amount);
                p.erc20(p.token2, s, p.recipient2, p.amount2);
            }
            default -> {} // failures move only the fee
        }
    }

    private static void gas(TxPlan p, Mix.Rng rng, long lo, long hi, int usedLo, int usedHi) {
        p.gasLimit = rng.between(lo, hi);
        p.gasUsed = p.gasLimit * rng.between(usedLo, usedHi) / 100;
    }

    private void fee(TxPlan p) {
        p.fee = (p.gasLimit * GAS_PRICE_MILLI + 999) / 1000;
        p.effects.add(0, new TxPlan.Erc20(0, p.sender, genesis.feeCollector().id(), p.fee));
    }

    private int recipient(Mix.Rng rng) {
        return rng.chance(0.3) ? rng.below(senders) : senders + rng.below(recipients);
    }

    /** Whether regular slot u mints an NFT. */
    public boolean isMint(long u) {
        return u >= 0 && u % M == 0 && Mix.unit(Mix.hash(seed, TAG_MINT, u)) < 0.5;
    }

    public int collectionOf(long tokenId) {
        return Mix.below(
                Mix.hash(seed, TAG_COLLECTION, tokenId), genesis.collections().size());
    }

    /** Owner of the NFT minted at slot u after step k (0 = mint, 1, 2 = transfers): the signer of step k+1. */
    private int ownerAfter(long u, int k) {
        return genesis.sender(u + (k == 0 ? K1 : k == 1 ? K2 : K3));
    }

    /**
     * The owner (actor id) of an NFT at the end of height h, or -1 when it does not exist then (not minted yet,
     * burnt, never minted, or another collection).
     */
    public int ownerOf(int collection, long tokenId, long h) {
        if (tokenId < 1 || tokenId > Long.MAX_VALUE / M) return TxPlan.ZERO;
        long u = (tokenId - 1) * M;
        if (!isMint(u) || collectionOf(tokenId) != collection) return TxPlan.ZERO;
        long g = u + Layout.GENESIS_TXS;
        if (h < layout.heightOf(g)) return TxPlan.ZERO;
        if (h < layout.heightOf(g + K1)) return ownerAfter(u, 0);
        if (h < layout.heightOf(g + K2)) return ownerAfter(u, 1);
        if (h < layout.heightOf(g + K3)) return ownerAfter(u, 2);
        return TxPlan.ZERO;
    }
}
