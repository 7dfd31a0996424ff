package dev.weft.devnet.gen;

import dev.weft.chain.Hashes;
import dev.weft.chain.Hex;
import dev.weft.devnet.crypto.Rlp;
import dev.weft.devnet.crypto.Secp256k1;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The EVM side of a tx: its logs (one per {@link TxPlan.Effect}, in order), the MsgCall input, the callTracer frame
 * tree and the EVM tx itself. Creation addresses follow the real CREATE/CREATE2 formulas.
 */
public final class EvmBuilder {
    static final String CHILD_INIT = bytecode(1, 96);
    static final String CHILD_RUNTIME = bytecode(2, 64);
    private static final byte[] CHILD_INIT_HASH = Hashes.keccak256(Hex.decode(CHILD_INIT));
    static final String INVARIANT = "invariant violated";

    private final Genesis genesis;
    private final Bloom bloom;

    public EvmBuilder(Genesis genesis, Bloom bloom) {
        this.genesis = genesis;
        this.bloom = bloom;
    }

    /** Deterministic stand-in bytecode: {@code 0x6080604052…}. */
    static String bytecode(long tag, int len) {
        return "0x6080604052" + Hex.lower(Mix.bytes(0x6080L, tag, len, len));
    }

    /** Init code of genesis contract d (its runtime code is {@link #runtime}). */
    static String initCode(int d) {
        return bytecode(100 + d, 160);
    }

    static String runtime(int d) {
        return bytecode(200 + d, 120);
    }

    public List<EvmLog> logs(TxPlan p) {
        List<EvmLog> out = new ArrayList<>(p.effects.size());
        for (TxPlan.Effect e : p.effects) out.add(log(e));
        return out;
    }

    private EvmLog log(TxPlan.Effect e) {
        if (e instanceof TxPlan.Erc20 t) {
            Token token = genesis.tokens().get(t.token());
            Actor c = token.contract();
            return new EvmLog(
                    c.hex(),
                    c.checksum(),
                    List.of(Abi.TRANSFER_TOPIC, topic(t.from()), topic(t.to())),
                    "0x" + Abi.word(token.units(t.quanta())));
        }
        TxPlan.Nft n = (TxPlan.Nft) e;
        Actor c = genesis.collections().get(n.collection()).contract();
        return new EvmLog(
                c.hex(),
                c.checksum(),
                List.of(Abi.TRANSFER_TOPIC, topic(n.from()), topic(n.to()), "0x" + Abi.word(n.tokenId())),
                "0x");
    }

    private String topic(int actor) {
        return actor == TxPlan.ZERO ? Abi.ZERO_TOPIC : genesis.actor(actor).topic();
    }

    private String hex(int actor) {
        return genesis.actor(actor).hex();
    }

    /** The account the tx's single call targets; null for a creation. */
    public Actor target(TxPlan p) {
        return switch (p.kind) {
            case DEPLOY -> null;
            case ERC20_TRANSFER -> genesis.tokens().get(p.token).contract();
            case NATIVE_TRANSFER -> genesis.actor(p.recipient);
            case ROUTER_CALL, FAIL_REVERT -> genesis.router();
            case NFT_MINT, NFT_TRANSFER, NFT_BURN ->
                genesis.collections().get(p.collection).contract();
            default -> throw new IllegalArgumentException(p.kind + " is not an EVM call");
        };
    }

    /** Lower hex of {@link #target}; null for a creation. */
    public String to(TxPlan p) {
        Actor a = target(p);
        return a == null ? null : a.hex();
    }

    /** The calldata of the tx's call (or the init code of a creation). */
    public String input(TxPlan p) {
        return switch (p.kind) {
            case DEPLOY -> initCode(p.deploy);
            case ERC20_TRANSFER, MULTI_MSG ->
                Abi.TRANSFER
                        + Abi.word(hex(p.kind == TxPlan.Kind.MULTI_MSG ? p.recipient2 : p.recipient))
                        + Abi.word(genesis.tokens()
                                .get(p.kind == TxPlan.Kind.MULTI_MSG ? p.token2 : p.token)
                                .units(p.kind == TxPlan.Kind.MULTI_MSG ? p.amount2 : p.amount));
            case NATIVE_TRANSFER -> "0x";
            case ROUTER_CALL ->
                Abi.DO_EVERYTHING
                        + Abi.word(hex(p.recipient))
                        + Abi.word(genesis.tokens().get(p.token).units(p.amount));
            case FAIL_REVERT ->
                Abi.SWAP_EXACT_IN
                        + Abi.word(genesis.tokens().get(p.token).contract().hex())
                        + Abi.word(genesis.tokens().get(p.token).units(p.amount))
                        + Abi.word(BigInteger.TWO.pow(200));
            case NFT_MINT -> Abi.MINT + Abi.word(hex(p.nftTo));
            case NFT_TRANSFER ->
                Abi.TRANSFER_FROM + Abi.word(hex(p.nftFrom)) + Abi.word(hex(p.nftTo)) + Abi.word(p.nftId);
            case NFT_BURN -> Abi.BURN + Abi.word(p.nftId);
            default -> throw new IllegalArgumentException(p.kind + " has no EVM input");
        };
    }

    /** The return data of the call as the {@code call} event's {@code ret} shows it. */
    public String ret(TxPlan p) {
        return switch (p.kind) {
            case DEPLOY -> runtime(p.deploy);
            case ERC20_TRANSFER, MULTI_MSG -> "0x" + Abi.word(1);
            case ROUTER_CALL -> "0x" + Abi.word(child(p, false));
            case NFT_MINT -> "0x" + Abi.word(p.nftId);
            default -> "0x";
        };
    }

    /** Contract created by a genesis deployment, lower hex. */
    public String created(TxPlan p) {
        return genesisContract(p.deploy).hex();
    }

    /** The contract genesis deployment d creates: tokens, collections, the fee library, the router. */
    public Actor genesisContract(int d) {
        int tokens = genesis.tokens().size();
        int colls = genesis.collections().size();
        if (d < tokens) return genesis.tokens().get(d).contract();
        if (d < tokens + colls) return genesis.collections().get(d - tokens).contract();
        return d == tokens + colls ? genesis.feeLib() : genesis.router();
    }

    /** The router's children: CREATE (nonce = the call's slot) and CREATE2 (salt = the slot). */
    private String child(TxPlan p, boolean create2) {
        byte[] router = genesis.router().address();
        byte[] a = create2
                ? ContractAddress.create2(router, Hex.decode(Abi.word(p.g)), CHILD_INIT_HASH)
                : ContractAddress.create(router, p.g);
        return Hex.prefixed(a);
    }

    /**
     * The Ethereum tx a single-call EVM tx is (minievm's view of a MsgCall or MsgCreate): EIP-1559 on the chain's EVM
     * chain id, nonce = the account sequence, no tip, fee cap = the devnet's gas price, no access list, signed with the
     * sender's key. {@code hash} is Keccak-256 of its typed envelope ({@code 0x02 || rlp([...fields, yParity, r, s])}), as
     * go-ethereum and ethers compute it; {@code signature} is {@code r || s || yParity}.
     */
    public record SignedEthTx(byte[] signature, String hash) {}

    public SignedEthTx sign(TxPlan p) {
        Actor from = genesis.actor(p.sender);
        String to = to(p);
        List<byte[]> fields = new ArrayList<>(12);
        fields.add(Rlp.encodeInteger(BigInteger.valueOf(genesis.spec().evmChainId())));
        fields.add(Rlp.encodeInteger(BigInteger.valueOf(p.sequence)));
        fields.add(Rlp.encodeInteger(BigInteger.ZERO));
        fields.add(Rlp.encodeInteger(BigInteger.valueOf(Planner.EVM_GAS_PRICE)));
        fields.add(Rlp.encodeInteger(BigInteger.valueOf(p.gasLimit)));
        fields.add(Rlp.encodeBytes(to == null ? new byte[0] : Hex.decode(to.substring(2))));
        fields.add(Rlp.encodeInteger(genesis.feeToken().evmValue(p.value)));
        fields.add(Rlp.encodeBytes(Hex.decode(input(p).substring(2))));
        fields.add(Rlp.encodeList(List.of()));
        byte[] signature =
                Secp256k1.signRecoverable(genesis.privateKeyOf(from), Hashes.keccak256(typed(Rlp.encodeList(fields))));
        fields.add(Rlp.encodeInteger(BigInteger.valueOf(signature[64])));
        fields.add(Rlp.encodeInteger(new BigInteger(1, Arrays.copyOfRange(signature, 0, 32))));
        fields.add(Rlp.encodeInteger(new BigInteger(1, Arrays.copyOfRange(signature, 32, 64))));
        return new SignedEthTx(signature, "0x" + Hex.lower(Hashes.keccak256(typed(Rlp.encodeList(fields)))));
    }

    private static byte[] typed(byte[] rlp) {
        byte[] out = new byte[rlp.length + 1];
        out[0] = 2;
        System.arraycopy(rlp, 0, out, 1, rlp.length);
        return out;
    }

    public EvmTx evmTx(TxPlan p, SignedEthTx signed, List<EvmLog> logs) {
        Actor from = genesis.actor(p.sender);
        String to = to(p);
        BigInteger value = genesis.feeToken().evmValue(p.value);
        boolean ok = !p.kind.failed();
        CallFrame frame = frame(p, from.hex(), to, value);
        byte[] sig = signed.signature();
        return new EvmTx(
                signed.hash(),
                from,
                to,
                p.kind == TxPlan.Kind.DEPLOY ? created(p) : null,
                value,
                input(p),
                p.sequence,
                p.gasLimit,
                p.gasUsed,
                ok,
                logs,
                frame,
                Abi.quantity(new BigInteger(1, Arrays.copyOfRange(sig, 0, 32))),
                Abi.quantity(new BigInteger(1, Arrays.copyOfRange(sig, 32, 64))),
                sig[64] == 0 ? "0x0" : "0x1",
                bloom.of(logs),
                EvmTx.Envelope.devnet(sig[64] == 0 ? "0x0" : "0x1"));
    }

    private CallFrame frame(TxPlan p, String from, String to, BigInteger value) {
        String v = Abi.quantity(value);
        return switch (p.kind) {
            case DEPLOY ->
                new CallFrame(
                        "CREATE",
                        from,
                        created(p),
                        "0x0",
                        p.gasLimit,
                        p.gasUsed,
                        initCode(p.deploy),
                        runtime(p.deploy),
                        null,
                        null,
                        null);
            case FAIL_REVERT -> {
                String reason = Planner.REVERT_REASONS[p.reason];
                yield new CallFrame(
                        "CALL",
                        from,
                        to,
                        v,
                        p.gasLimit,
                        p.gasUsed,
                        input(p),
                        Abi.errorString(reason),
                        "execution reverted",
                        reason,
                        null);
            }
            case ROUTER_CALL -> routerFrame(p, from, to, v);
            case NATIVE_TRANSFER, NFT_TRANSFER, NFT_BURN ->
                new CallFrame("CALL", from, to, v, p.gasLimit, p.gasUsed, input(p), null, null, null, null);
            default -> new CallFrame("CALL", from, to, v, p.gasLimit, p.gasUsed, input(p), ret(p), null, null, null);
        };
    }

    /** The Anvil {@code doEverything} shape: every frame type, value transfers and a caught revert. */
    private CallFrame routerFrame(TxPlan p, String from, String router, String v) {
        Mix.Rng rng = new Mix.Rng(Mix.hash(p.g, 0x7a11));
        Token token = genesis.tokens().get(p.token);
        String t = token.contract().hex();
        String x = hex(p.recipient);
        String half = Abi.quantity(genesis.feeToken().evmValue(p.value / 2));
        String c1 = child(p, false);
        String c2 = child(p, true);
        long gas = p.gasLimit - 21_000 - 1_000;
        List<CallFrame> calls = new ArrayList<>(9);
        calls.add(new CallFrame(
                "CREATE",
                router,
                c1,
                "0x0",
                gas -= 10_000,
                rng.between(40_000, 60_000),
                CHILD_INIT,
                CHILD_RUNTIME,
                null,
                null,
                null));
        calls.add(new CallFrame(
                "CALL",
                router,
                c1,
                "0x0",
                gas -= 60_000,
                rng.between(100, 400),
                Abi.PING,
                "0x" + Abi.word(1),
                null,
                null,
                null));
        calls.add(new CallFrame("CALL", router, x, half, 2_300, 0, "0x", null, null, null, null));
        calls.add(new CallFrame(
                "STATICCALL",
                router,
                t,
                null,
                gas -= 12_000,
                rng.between(2_000, 3_000),
                Abi.DECIMALS,
                "0x" + Abi.word(token.decimals()),
                null,
                null,
                null));
        calls.add(new CallFrame(
                "CALL",
                router,
                t,
                "0x0",
                gas -= 3_000,
                rng.between(25_000, 35_000),
                Abi.TRANSFER_FROM + Abi.word(from) + Abi.word(x) + Abi.word(token.units(p.amount)),
                "0x" + Abi.word(1),
                null,
                null,
                null));
        calls.add(new CallFrame(
                "DELEGATECALL",
                router,
                genesis.feeLib().hex(),
                v,
                gas -= 35_000,
                rng.between(200, 400),
                Abi.FEE + Abi.word(token.units(p.amount)),
                "0x" + Abi.word(token.units(p.amount / 100)),
                null,
                null,
                null));
        calls.add(new CallFrame(
                "STATICCALL",
                router,
                router,
                null,
                gas -= 1_000,
                rng.between(250, 350),
                Abi.CHECK_INVARIANT,
                Abi.errorString(INVARIANT),
                "execution reverted",
                INVARIANT,
                null));
        calls.add(new CallFrame(
                "CREATE2",
                router,
                c2,
                "0x0",
                gas -= 1_000,
                rng.between(40_000, 60_000),
                CHILD_INIT,
                CHILD_RUNTIME,
                null,
                null,
                null));
        calls.add(new CallFrame("CALL", router, x, half, gas - 60_000, 0, "0x", null, null, null, null));
        return new CallFrame(
                "CALL", from, router, v, p.gasLimit, p.gasUsed, input(p), "0x" + Abi.word(c1), null, null, calls);
    }
}
