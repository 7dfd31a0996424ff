package dev.weft.devnet.gen;

import java.util.ArrayList;
import java.util.List;

/**
 * What one tx of the chain does, decided by {@link Planner} from (seed, global tx index) alone. Both the renderer
 * ({@link TxBuilder}) and the balance ledger ({@link Ledger}) read the same {@link #effects}, so the Transfer logs a
 * client sums always agree with {@code balanceOf}. Fields are set once by the planner.
 */
public final class TxPlan {

    public enum Kind {
        /** Block 1: the deployer creates a contract (tokens mint their genesis supply in the constructor). */
        DEPLOY(true),
        BANK_SEND(false),
        ERC20_TRANSFER(true),
        /** A MsgCall with value and empty input to an account: the fee token moves. */
        NATIVE_TRANSFER(true),
        /** A router call with nested CREATE, CREATE2, CALL with value, STATICCALL, DELEGATECALL and a reverted sub-call. */
        ROUTER_CALL(true),
        /** MsgSend + MsgCall in one tx: not an EVM tx (minievm accepts only one top-level call). */
        MULTI_MSG(false),
        NFT_MINT(true),
        NFT_TRANSFER(true),
        NFT_BURN(true),
        /** A MsgCall that reverts: code != 0, receipt status 0x0. */
        FAIL_REVERT(true),
        /** A MsgSend that runs out of gas: code 11. */
        FAIL_OUT_OF_GAS(false);

        private final boolean evm;

        Kind(boolean evm) {
            this.evm = evm;
        }

        /** Whether the tx is one EVM call, so it has an EVM hash, a receipt and a call trace. */
        public boolean evm() {
            return evm;
        }

        public boolean failed() {
            return this == FAIL_REVERT || this == FAIL_OUT_OF_GAS;
        }
    }

    /** Something that emits a log: an ERC-20 transfer (from -1 = mint) or an ERC-721 transfer (-1 = mint/burn side). */
    public sealed interface Effect {}

    public record Erc20(int token, int from, int to, long quanta) implements Effect {}

    public record Nft(int collection, int from, int to, long tokenId) implements Effect {}

    public static final int ZERO = -1;

    public long g;
    public Kind kind;
    public int sender;
    public long sequence;
    public long gasLimit;
    public long gasUsed;
    /** Fee in fee-token quanta (0 for the genesis deployments). */
    public long fee;

    public int token;
    public int token2;
    public int recipient;
    public int recipient2;
    /** Token amount in quanta of {@link #token}. */
    public long amount;

    public long amount2;
    /** Value sent with the call, in fee-token quanta. */
    public long value;

    public int collection;
    public long nftId;
    public int nftFrom = ZERO;
    public int nftTo = ZERO;
    /** Genesis deployment index (tokens, collections, library, router). */
    public int deploy;

    public int reason;
    public String memo = "";
    public final List<Effect> effects = new ArrayList<>(6);

    void erc20(int token, int from, int to, long quanta) {
        effects.add(new Erc20(token, from, to, quanta));
    }
}
