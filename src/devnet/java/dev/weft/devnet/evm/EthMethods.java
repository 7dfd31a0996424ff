package dev.weft.devnet.evm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.chain.Hex;
import dev.weft.devnet.gen.Abi;
import dev.weft.devnet.gen.Block;
import dev.weft.devnet.gen.DevnetChain;
import dev.weft.devnet.gen.Token;
import dev.weft.devnet.gen.Tx;
import dev.weft.devnet.http.Json;
import dev.weft.devnet.http.JsonRpc;
import dev.weft.devnet.tx.EthRawTx;
import java.util.Set;

/** The EVM JSON-RPC methods of the devnet; each returns the result writer or throws a {@link JsonRpc.Error}. */
final class EthMethods {
    /**
     * Methods run on a worker thread: those that may replay the ledger, and a block's receipts and traces (an indexer's
     * and a tracer's costliest EVM reads, rendered there so the event loop serving every connection only writes them).
     */
    static final Set<String> SLOW = Set.of(
            "eth_call",
            "eth_getBalance",
            "eth_getLogs",
            "eth_sendRawTransaction",
            "eth_getBlockReceipts",
            "debug_traceBlockByNumber");
    /** Stub runtime code of the devnet's contracts (their calls are simulated, not executed): a bare revert. */
    static final String CONTRACT_CODE = "0x6080604052600080fd";

    private static final String ZERO_HASH = "0".repeat(64);
    private static final String CLIENT = "Weft-devnet/minievm/v1.1.6";

    private final DevnetChain chain;
    private final EthCall ethCall;
    private final String chainIdHex;
    private final EthLogs logs;
    private final java.util.function.Function<byte[], String> sendRaw;

    /** @param maxLogRange most blocks one {@code eth_getLogs} may span */
    EthMethods(DevnetChain chain, int maxLogRange, java.util.function.Function<byte[], String> sendRaw) {
        this.chain = chain;
        this.sendRaw = sendRaw;
        this.ethCall = new EthCall(chain);
        this.logs = new EthLogs(chain, maxLogRange, this::height);
        this.chainIdHex = Abi.quantity(chain.spec().evmChainId());
    }

    Json.Body call(String method, JsonNode params) {
        return switch (method) {
            case "eth_chainId" -> string(chainIdHex);
            case "net_version" -> string(Long.toString(chain.spec().evmChainId()));
            case "web3_clientVersion" -> string(CLIENT);
            case "eth_blockNumber" -> string(Abi.quantity(chain.head()));
            case "eth_gasPrice" -> string(EthJson.GAS_PRICE);
            case "eth_syncing" -> g -> g.writeBoolean(false);
            case "eth_getBlockByNumber" -> block(blockOrNull(param(params, 0)), bool(params, 1));
            case "eth_getBlockByHash" -> block(byHash(param(params, 0)), bool(params, 1));
            case "eth_getBlockReceipts" -> receipts(blockOrNull(param(params, 0)));
            case "eth_getTransactionReceipt" -> receipt(param(params, 0));
            case "eth_getTransactionByHash" -> transaction(param(params, 0));
            case "eth_call" -> call(params);
            case "eth_getBalance" -> balance(params);
            case "eth_getLogs" -> logs.logs(param(params, 0));
            case "eth_getCode" -> code(params);
            case "eth_getTransactionCount" -> transactionCount(params);
            case "eth_sendRawTransaction" -> sendRawTransaction(param(params, 0));
            case "cosmos_cosmosTxHashByTxHash" -> cosmosHash(param(params, 0));
            case "cosmos_txHashByCosmosTxHash" -> evmHash(param(params, 0));
            case "debug_traceBlockByNumber" -> traceBlock(existing(param(params, 0)), traceOnlyTop(params));
            case "debug_traceBlockByHash" -> traceBlock(existingByHash(param(params, 0)), traceOnlyTop(params));
            case "debug_traceTransaction" -> traceTx(param(params, 0), traceOnlyTop(params));
            default ->
                throw new JsonRpc.Error(-32601, "the method " + method + " does not exist/is not available", null);
        };
    }

    private static Json.Body string(String s) {
        return g -> g.writeString(s);
    }

    private static Json.Body nullResult() {
        return g -> g.writeNull();
    }

    private static JsonNode param(JsonNode params, int i) {
        if (params == null
                || !params.isArray()
                || params.size() <= i
                || params.get(i).isNull()) {
            throw new JsonRpc.Error(-32602, "missing value for required argument " + i, null);
        }
        return params.get(i);
    }

    private static boolean bool(JsonNode params, int i) {
        return params != null
                && params.isArray()
                && params.size() > i
                && params.get(i).asBoolean(false);
    }

    /** A block tag or hex number → height; latest/pending/safe/finalized = head, earliest = 1. */
    private long height(JsonNode tag) {
        JsonNode t = tag.isObject() && tag.has("blockNumber") ? tag.get("blockNumber") : tag;
        if (!t.isTextual()) throw new JsonRpc.Error(-32602, "invalid argument 0: hex string without 0x prefix", null);
        String s = t.asText();
        switch (s) {
            case "latest", "pending", "safe", "finalized":
                return chain.head();
            case "earliest":
                return 1;
            default:
                if (!s.startsWith("0x") || s.length() < 3)
                    throw new JsonRpc.Error(-32602, "invalid argument 0: hex string without 0x prefix", null);
                try {
                    return Long.parseLong(s.substring(2), 16);
                } catch (NumberFormatException e) {
                    throw new JsonRpc.Error(-32602, "invalid argument 0: hex number > 64 bits", null);
                }
        }
    }

    private Block blockOrNull(JsonNode tag) {
        if (tag.isTextual() && tag.asText().length() == 66) return byHash(tag);
        if (tag.isObject() && tag.has("blockHash")) return byHash(tag.get("blockHash"));
        long h = height(tag);
        return chain.exists(h) ? chain.block(h) : null;
    }

    private Block byHash(JsonNode hash) {
        byte[] h = hash32(hash);
        return chain.findBlock(h);
    }

    private Block existing(JsonNode tag) {
        Block b = blockOrNull(tag);
        if (b == null)
            throw new JsonRpc.Error(
                    -32000, "block #" + (tag.isTextual() ? tag.asText() : tag.toString()) + " not found", null);
        return b;
    }

    private Block existingByHash(JsonNode hash) {
        Block b = byHash(hash);
        if (b == null) throw new JsonRpc.Error(-32000, "block " + hash.asText() + " not found", null);
        return b;
    }

    private static byte[] hash32(JsonNode n) {
        String s = n.asText("");
        if (!s.startsWith("0x") || !Hex.isHex(s, 32))
            throw new JsonRpc.Error(
                    -32602,
                    "invalid argument 0: hex string has length " + Math.max(0, s.length() - 2)
                            + ", want 64 for common.Hash",
                    null);
        return Hex.decode(s);
    }

    private Json.Body block(Block b, boolean full) {
        if (b == null) return nullResult();
        byte[] state = chain.appHash(b.height + 1);
        return g -> EthJson.block(g, b, full, chainIdHex, state);
    }

    private Json.Body receipts(Block b) {
        if (b == null) return nullResult();
        return g -> {
            g.writeStartArray();
            for (int i = 0; i < b.evmTxs.size(); i++) EthJson.receipt(g, b, i);
            g.writeEndArray();
        };
    }

    private DevnetChain.TxRef evmTx(JsonNode hash) {
        byte[] h = hash32(hash);
        DevnetChain.TxRef ref = chain.findTx(h);
        return ref != null && ref.tx().evm != null && ref.tx().evm.hash().equals(Hex.prefixed(h)) ? ref : null;
    }

    private Json.Body receipt(JsonNode hash) {
        DevnetChain.TxRef ref = evmTx(hash);
        if (ref == null) return nullResult();
        int i = ref.block().evmIndex(ref.tx());
        return g -> EthJson.receipt(g, ref.block(), i);
    }

    private Json.Body transaction(JsonNode hash) {
        DevnetChain.TxRef ref = evmTx(hash);
        if (ref == null) return nullResult();
        int i = ref.block().evmIndex(ref.tx());
        return g -> EthJson.tx(g, ref.block(), i, chainIdHex);
    }

    private long stateHeight(JsonNode params, int i) {
        long h = params != null
                        && params.isArray()
                        && params.size() > i
                        && !params.get(i).isNull()
                ? height(params.get(i))
                : chain.head();
        if (!chain.exists(h)) throw new JsonRpc.Error(-32000, "header not found", null);
        return h;
    }

    private Json.Body call(JsonNode params) {
        JsonNode tx = param(params, 0);
        long h = stateHeight(params, 1);
        String to = tx.path("to").asText("");
        if (!Hex.isHex(to, 20))
            throw new JsonRpc.Error(-32602, "invalid argument 0: missing or invalid \"to\" address", null);
        String data = tx.hasNonNull("input")
                ? tx.get("input").asText()
                : tx.path("data").asText("0x");
        try {
            String out = ethCall.call(Hex.decode(to), data, h);
            return string(out);
        } catch (EthCall.Reverted r) {
            if (r.data.length() > 2) throw new JsonRpc.Error(3, "execution reverted", r.data);
            throw new JsonRpc.Error(-32000, "execution reverted", null);
        } catch (IllegalArgumentException e) {
            throw new JsonRpc.Error(-32602, "invalid argument 0: " + e.getMessage(), null);
        }
    }

    private Json.Body balance(JsonNode params) {
        String addr = param(params, 0).asText("");
        if (!Hex.isHex(addr, 20))
            throw new JsonRpc.Error(-32602, "invalid argument 0: hex string has wrong length for common.Address", null);
        long h = stateHeight(params, 1);
        Token fee =
                chain.genesis().feeToken(); // native balance = the fee token's bank balance, in the EVM's 18 decimals
        java.math.BigInteger generated = chain.balanceOf(fee, Hex.decode(addr), h);
        // coins submitted txs moved are known as at the head only
        java.math.BigInteger submitted = h == chain.head()
                ? chain.submittedBalances()
                        .of(dev.weft.chain.AccountAddress.of(Hex.decode(addr))
                                .bech32(chain.spec().bech32Prefix()))
                        .getOrDefault(fee.bankDenom(), java.math.BigInteger.ZERO)
                : java.math.BigInteger.ZERO;
        return string(
                Abi.quantity(generated.add(submitted).multiply(java.math.BigInteger.TEN.pow(18 - fee.decimals()))));
    }

    /**
     * minievm's {@code eth_getTransactionCount}: the account's sequence, {@code pending} as CheckTx sees it (txs in the
     * mempool counted), any other block as committed at the head (the devnet keeps no sequence history).
     */
    private Json.Body transactionCount(JsonNode params) {
        String addr = param(params, 0).asText("");
        if (!Hex.isHex(addr, 20))
            throw new JsonRpc.Error(-32602, "invalid argument 0: hex string has wrong length for common.Address", null);
        boolean pending = params.size() > 1 && "pending".equals(params.get(1).asText());
        if (!pending) stateHeight(params, 1);
        dev.weft.devnet.gen.Accounts.Account a = pending
                ? chain.accounts().checkState(Hex.decode(addr))
                : chain.accounts().committed(Hex.decode(addr));
        return string(Abi.quantity(a == null ? 0 : a.sequence()));
    }

    /** minievm's {@code eth_sendRawTransaction}: the tx's hash once queued; geth's {@code -32000} error when refused. */
    private Json.Body sendRawTransaction(JsonNode raw) {
        String s = raw.asText("");
        if (!s.startsWith("0x") || (s.length() & 1) != 0 || !s.substring(2).matches("[0-9a-fA-F]*")) {
            throw new JsonRpc.Error(
                    -32602,
                    "invalid argument 0: json: cannot unmarshal hex string without 0x prefix into Go value of type hexutil.Bytes",
                    null);
        }
        try {
            return string(sendRaw.apply(Hex.decode(s)));
        } catch (EthRawTx.Invalid e) {
            throw new JsonRpc.Error(-32000, e.getMessage(), null);
        }
    }

    /** The stub code of a deployed contract (from block 1 on), {@code 0x} for an account. */
    private Json.Body code(JsonNode params) {
        String addr = param(params, 0).asText("");
        if (!Hex.isHex(addr, 20))
            throw new JsonRpc.Error(-32602, "invalid argument 0: hex string has wrong length for common.Address", null);
        long h = stateHeight(params, 1);
        return string(h >= 1 && ethCall.hasCode(Hex.decode(addr)) ? CONTRACT_CODE : "0x");
    }

    /**
     * minievm's {@code cosmos_cosmosTxHashByTxHash}: the Cosmos hash of an EVM tx as an unprefixed lower-case hash
     * ({@code common.UnprefixedHash}), the zero hash when unknown.
     */
    private Json.Body cosmosHash(JsonNode hash) {
        DevnetChain.TxRef ref = evmTx(hash);
        return string(ref == null ? ZERO_HASH : ref.tx().hash.toLowerCase(java.util.Locale.ROOT));
    }

    /** minievm's {@code cosmos_txHashByCosmosTxHash}: the EVM hash of a Cosmos tx (hex, with or without 0x), the zero hash when it has none. */
    private Json.Body evmHash(JsonNode hash) {
        String s = hash.asText("");
        String bare = s.startsWith("0x") || s.startsWith("0X") ? s.substring(2) : s;
        if (bare.length() != 64 || !Hex.isHex("0x" + bare, 32)) {
            throw new JsonRpc.Error(
                    -32602,
                    "invalid argument 0: hex string has length " + bare.length()
                            + ", want 64 for common.UnprefixedHash",
                    null);
        }
        DevnetChain.TxRef ref = chain.findTx(Hex.decode("0x" + bare));
        boolean cosmos = ref != null && ref.tx().hash.equalsIgnoreCase(bare);
        return string(cosmos && ref.tx().evm != null ? ref.tx().evm.hash() : "0x" + ZERO_HASH);
    }

    /** Only the callTracer is served; {@code tracerConfig.onlyTopCall} drops the sub-calls. */
    private static boolean traceOnlyTop(JsonNode params) {
        JsonNode opts = params != null && params.isArray() && params.size() > 1 ? params.get(1) : null;
        String tracer = opts == null ? "" : opts.path("tracer").asText("");
        if (!tracer.equals("callTracer"))
            throw new JsonRpc.Error(-32000, "the devnet serves only the callTracer (got \"" + tracer + "\")", null);
        return opts.path("tracerConfig").path("onlyTopCall").asBoolean(false);
    }

    private Json.Body traceBlock(Block b, boolean onlyTop) {
        String chainId = chain.spec().chainId();
        return g -> {
            g.writeStartArray();
            for (Tx tx : b.txs) EthJson.traceEntry(g, tx, chainId, onlyTop);
            g.writeEndArray();
        };
    }

    private Json.Body traceTx(JsonNode hash, boolean onlyTop) {
        byte[] h = hash32(hash);
        DevnetChain.TxRef ref = chain.findTx(h);
        if (ref == null) throw new JsonRpc.Error(-32000, "transaction not found", null);
        if (ref.tx().evm == null || !ref.tx().evm.hash().equals(Hex.prefixed(h))) {
            throw new JsonRpc.Error(
                    -32000, EthJson.cosmosTraceError(ref.tx(), chain.spec().chainId()), null);
        }
        return g -> EthJson.frame(g, ref.tx().evm.frame(), onlyTop);
    }
}
