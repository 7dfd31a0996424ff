package dev.weft.devnet.rest;

import dev.weft.chain.Bech32;
import dev.weft.chain.Hex;
import dev.weft.devnet.fault.FaultInjector;
import dev.weft.devnet.gen.Block;
import dev.weft.devnet.gen.ChainSpec;
import dev.weft.devnet.gen.DevnetChain;
import dev.weft.devnet.gen.Token;
import dev.weft.devnet.gen.Tx;
import dev.weft.devnet.gen.Validator;
import dev.weft.devnet.http.DevnetServer;
import dev.weft.devnet.http.Reply;
import dev.weft.devnet.json.JsonOut;
import dev.weft.devnet.mempool.Broadcaster;
import dev.weft.devnet.rpc.BlockJson;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;
import java.util.Locale;

/**
 * The Cosmos REST (gRPC-gateway) API of a simulated node: the routes an indexer, a wallet and a router use. Errors are
 * the gateway's {@code {"code","message","details"}} with the gRPC code (3 invalid argument → 400, 5 not found → 404);
 * a route no module registers is HTTP 501 {@code {"code":12,"message":"Not Implemented","details":[]}} and a served
 * path asked with another method 501 {@code Method Not Allowed}, as grpc-gateway's {@code ServeMux} answers. A
 * rollup registers opchild (validators by operator address), a plain SDK chain x/staking instead.
 */
public final class CosmosRestServer extends DevnetServer {
    private static final int DEFAULT_LIMIT = 100;
    private static final String TXS = "/cosmos/tx/v1beta1/txs";
    private static final String TXS_BY_BLOCK = "/cosmos/tx/v1beta1/txs/block/";
    private static final String BALANCES = "/cosmos/bank/v1beta1/balances/";
    private static final String SIMULATE = "/cosmos/tx/v1beta1/simulate";

    private final DevnetChain chain;
    private final FaultInjector faults;
    private final RestNodeInfo nodeInfo;
    private final RestBroadcast broadcast;
    private final RestBank bank;
    private final RestTxSearch txSearch;
    private final boolean plain;
    private java.util.function.Function<Request, Reply> extraRoutes;

    public CosmosRestServer(Vertx vertx, FaultInjector faults, DevnetChain chain) {
        this(vertx, faults, chain, null, false, 1000);
    }

    /**
     * @param broadcaster where broadcast txs go; null when the chain takes none
     * @param plain       a plain SDK chain (x/staking, no opchild) rather than an OPinit rollup
     * @param txSearchWindow blocks a tx search without height conditions scans at most
     */
    public CosmosRestServer(
            Vertx vertx,
            FaultInjector faults,
            DevnetChain chain,
            Broadcaster broadcaster,
            boolean plain,
            int txSearchWindow) {
        super(vertx, faults);
        this.chain = chain;
        this.faults = faults;
        this.nodeInfo = new RestNodeInfo(chain);
        this.broadcast = new RestBroadcast(broadcaster);
        this.bank = new RestBank(chain);
        this.txSearch = new RestTxSearch(chain, txSearchWindow);
        this.plain = plain;
    }

    /** Routes of chain-specific modules, asked first; they answer null for a path that is not theirs. */
    public CosmosRestServer withRoutes(java.util.function.Function<Request, Reply> routes) {
        this.extraRoutes = routes;
        return this;
    }

    /** A request that cannot be answered: the gateway error it becomes. */
    static final class RestError extends RuntimeException {
        final int status;
        final int code;

        RestError(int status, int code, String message) {
            super(message);
            this.status = status;
            this.code = code;
        }

        static RestError invalid(String message) {
            return new RestError(400, 3, message);
        }

        static RestError notFound(String message) {
            return new RestError(404, 5, message);
        }
    }

    @Override
    protected Future<Reply> handle(Request r) {
        // a search scans up to the search window's blocks, and a block's txs are an indexer's costliest read: off the
        // event
        // loop that serves every connection and fires every latency timer
        if (r.method() == HttpMethod.GET && r.path().equals(TXS))
            return vertx.executeBlocking(() -> guarded(() -> txSearch.search(r)), false);
        if (r.method() == HttpMethod.GET && r.path().startsWith(TXS_BY_BLOCK))
            return vertx.executeBlocking(() -> guarded(() -> route(r)), false);
        return Future.succeededFuture(guarded(() -> route(r)));
    }

    private static Reply guarded(java.util.function.Supplier<Reply> answer) {
        try {
            return answer.get();
        } catch (RestError e) {
            return error(e.status, e.code, e.getMessage());
        }
    }

    private Reply route(Request r) {
        String p = r.path();
        Reply extra = extraRoutes == null ? null : extraRoutes.apply(r);
        if (extra != null) return extra;
        if (r.method() == HttpMethod.POST && p.equals(TXS)) return broadcast.broadcast(r.body());
        if (r.method() == HttpMethod.POST && p.equals("/cosmos/tx/v1beta1/encode"))
            return RestBroadcast.encode(r.body());
        if (r.method() == HttpMethod.POST && p.equals(SIMULATE)) return broadcast.simulate(r.body());
        Reply reply = r.method() == HttpMethod.GET ? get(r, p) : null;
        if (reply != null) return reply;
        if (r.method() != HttpMethod.GET
                && (p.equals(TXS) || p.equals("/cosmos/tx/v1beta1/encode") || p.equals(SIMULATE) || servedForGet(p))) {
            return error(501, 12, "Method Not Allowed");
        }
        return error(501, 12, "Not Implemented");
    }

    /** Whether a GET of the path (without parameters) has a route, even one that would refuse it. */
    private boolean servedForGet(String p) {
        try {
            return get(new Request(HttpMethod.GET, p, io.vertx.core.MultiMap.caseInsensitiveMultiMap(), null), p)
                    != null;
        } catch (RestError e) {
            return true;
        }
    }

    /** The answer of a GET route, or null when no module registers the path. */
    private Reply get(Request r, String p) {
        if (p.equals("/cosmos/base/tendermint/v1beta1/blocks/latest")) return latestBlock(requireHead());
        if (p.startsWith("/cosmos/base/tendermint/v1beta1/blocks/"))
            return latestBlock(height(tail(p, "/cosmos/base/tendermint/v1beta1/blocks/")));
        if (p.equals("/cosmos/base/tendermint/v1beta1/node_info")) return Reply.json(200, nodeInfo::write);
        if (p.startsWith(TXS_BY_BLOCK)) return blockWithTxs(height(tail(p, TXS_BY_BLOCK)), r);
        if (p.startsWith(TXS + "/")) return getTx(tail(p, TXS + "/"));
        if (p.startsWith(BALANCES) && p.endsWith("/by_denom"))
            return bank.balance(between(p, BALANCES, "/by_denom"), r.param("denom"));
        if (p.startsWith(BALANCES) && p.indexOf('/', BALANCES.length()) < 0) return bank.balances(tail(p, BALANCES), r);
        if (p.startsWith("/cosmos/auth/v1beta1/accounts/"))
            return bank.account(tail(p, "/cosmos/auth/v1beta1/accounts/"));
        if (!plain && p.equals("/opinit/opchild/v1/validators"))
            return Reply.json(200, g -> nodeInfo.validators(g, false));
        if (!plain && p.startsWith("/opinit/opchild/v1/validator/"))
            return validator(tail(p, "/opinit/opchild/v1/validator/"), false);
        if (plain && p.equals("/cosmos/staking/v1beta1/validators"))
            return Reply.json(200, g -> nodeInfo.validators(g, true));
        if (plain
                && p.startsWith("/cosmos/staking/v1beta1/validators/")
                && p.indexOf('/', "/cosmos/staking/v1beta1/validators/".length()) < 0) {
            return validator(tail(p, "/cosmos/staking/v1beta1/validators/"), true);
        }
        if (chain.spec().generated() && p.equals("/cosmos/auth/v1beta1/accounts"))
            return accounts(r.param("pagination.key"), r.param("pagination.limit"));
        if (chain.spec().generated() && p.equals("/minievm/evm/v1/contracts/by_denom"))
            return byDenom(r.param("denom"));
        if (chain.spec().generated() && p.startsWith("/minievm/evm/v1/denoms/"))
            return denomOf(tail(p, "/minievm/evm/v1/denoms/"));
        return null;
    }

    private static String between(String path, String prefix, String suffix) {
        return path.substring(prefix.length(), path.length() - suffix.length());
    }

    private static String tail(String path, String prefix) {
        return path.substring(prefix.length());
    }

    private long requireHead() {
        if (chain.head() < 1) throw RestError.invalid("no block has been committed yet");
        return chain.head();
    }

    private long height(String s) {
        long h;
        try {
            h = Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw RestError.invalid("strconv.ParseInt: parsing \"" + s + "\": invalid syntax");
        }
        long head = chain.head();
        if (h < 1 || h > head) {
            throw RestError.invalid(
                    "requested height " + h + " but height must not be less than 1 or greater than the current height "
                            + head + ": invalid height");
        }
        return h;
    }

    /** GetLatestBlock / GetBlockByHeight: block_id, block and the SDK block (proposer as a valcons address). */
    private Reply latestBlock(long h) {
        Block b = chain.block(h);
        String chainId = chain.spec().chainId();
        String valcons = Bech32.encode(chain.spec().bech32Prefix() + "valcons", b.proposer.address());
        return Reply.json(200, g -> {
            g.writeStartObject();
            g.writeFieldName("block_id");
            BlockJson.PROTO.blockId(g, b.hash, b.partsHash);
            g.writeFieldName("block");
            BlockJson.PROTO.block(g, b, chainId, null);
            g.writeFieldName("sdk_block");
            BlockJson.PROTO.block(g, b, chainId, valcons);
            g.writeEndObject();
        });
    }

    /**
     * GetBlockWithTxs, paginated by {@code pagination.offset} or {@code pagination.key} and {@code pagination.limit}
     * (default 100). {@code next_key} is the base64 offset of the next page, null on the last one; {@code total} is the
     * block's tx count. Under the short-answer fault the node returns fewer txs, {@code next_key: null} and a short
     * total, like the node bug rollytics met.
     */
    private Reply blockWithTxs(long h, Request r) {
        Block b = chain.block(h);
        int n = faults.restTxCount(h, b.txs.size());
        long limit = longParam(r, "pagination.limit", 0);
        if (limit <= 0) limit = DEFAULT_LIMIT;
        String key = r.param("pagination.key");
        long offset = longParam(r, "pagination.offset", 0);
        if (key != null && !key.isEmpty()) {
            if (offset > 0)
                throw RestError.invalid("paginate: invalid request, either offset or key is expected, got both");
            offset = decodeKey(key);
        }
        boolean reverse = "true".equalsIgnoreCase(r.param("pagination.reverse"));
        if (offset >= n && n != 0) {
            throw RestError.invalid("out of range: cannot paginate " + n + " txs with offset " + offset + " and limit "
                    + limit + ": invalid request");
        }
        int start = (int) Math.min(offset, n);
        int count = (int) Math.min(limit, n - start);
        String nextKey = start + count < n
                ? Base64.getEncoder()
                        .encodeToString(
                                ByteBuffer.allocate(8).putLong(start + count).array())
                : null;
        String chainId = chain.spec().chainId();
        return Reply.json(200, g -> {
            g.writeStartObject();
            g.writeArrayFieldStart("txs");
            for (int i = 0; i < count; i++) RestJson.tx(g, b.txs.get(reverse ? n - 1 - start - i : start + i), false);
            g.writeEndArray();
            g.writeFieldName("block_id");
            BlockJson.PROTO.blockId(g, b.hash, b.partsHash);
            g.writeFieldName("block");
            BlockJson.PROTO.block(g, b, chainId, null);
            g.writeObjectFieldStart("pagination");
            if (nextKey == null) g.writeNullField("next_key");
            else g.writeStringField("next_key", nextKey);
            g.writeStringField("total", Integer.toString(n));
            g.writeEndObject();
            g.writeEndObject();
        });
    }

    static long longParam(Request r, String name, long def) {
        String s = r.param(name);
        if (s == null || s.isEmpty()) return def;
        try {
            long v = Long.parseLong(s);
            if (v < 0) throw new NumberFormatException();
            return v;
        } catch (NumberFormatException e) {
            throw RestError.invalid("strconv.ParseUint: parsing \"" + s + "\": invalid syntax");
        }
    }

    private static long decodeKey(String key) {
        try {
            byte[] b = Base64.getDecoder().decode(key);
            if (b.length != 8) throw new IllegalArgumentException();
            return ByteBuffer.wrap(b).getLong();
        } catch (IllegalArgumentException e) {
            throw RestError.invalid("invalid pagination key: " + key);
        }
    }

    /** GetTx: {@code {tx, tx_response}}; the hash in any case, without 0x. */
    private Reply getTx(String hash) {
        if (!Hex.isHex(hash, 32) || hash.startsWith("0x") || hash.startsWith("0X")) {
            throw RestError.invalid("tx hash " + hash + " is not a valid hex hash: invalid request");
        }
        DevnetChain.TxRef ref = chain.findTx(Hex.decode(hash));
        String upper = hash.toUpperCase(Locale.ROOT);
        if (ref == null || !ref.tx().hash.equals(upper)) throw RestError.notFound("tx not found: " + upper);
        Block b = ref.block();
        Tx tx = ref.tx();
        return Reply.json(200, g -> {
            g.writeStartObject();
            g.writeFieldName("tx");
            RestJson.tx(g, tx, false);
            g.writeFieldName("tx_response");
            RestJson.txResponse(g, b, tx);
            g.writeEndObject();
        });
    }

    /**
     * The validator of an operator (valoper) address, which carries the consensus address bytes: opchild's, or with
     * {@code staking} x/staking's.
     */
    private Reply validator(String addr, boolean staking) {
        byte[] bytes;
        try {
            bytes = ChainSpec.bech32Bytes(addr, chain.spec().valoperPrefix());
        } catch (RuntimeException e) {
            throw RestError.invalid("decoding bech32 failed: " + e.getMessage());
        }
        for (Validator v : chain.genesis().validators()) {
            if (Arrays.equals(v.address(), bytes))
                return Reply.json(200, g -> {
                    g.writeStartObject();
                    g.writeFieldName("validator");
                    if (staking) RestNodeInfo.stakingValidator(g, v, nodeInfo.genesisTime());
                    else RestNodeInfo.validator(g, v);
                    g.writeEndObject();
                });
        }
        throw RestError.notFound("validator " + addr + " not found");
    }

    /**
     * x/auth's account list, a page at a time ({@code pagination.key}: the base64 key of the previous page's
     * {@code next_key}): every account of the generated chain, as {@code BaseAccount}s in account order. The devnet lists
     * them whatever the height asked (accounts that hold nothing yet are simply empty).
     */
    private Reply accounts(String key, String limitParam) {
        int limit = 100;
        if (limitParam != null && !limitParam.isEmpty()) {
            try {
                limit = Math.max(1, Math.min(1000, Integer.parseInt(limitParam)));
            } catch (NumberFormatException e) {
                throw RestError.invalid("invalid pagination.limit: " + limitParam);
            }
        }
        int from = 0;
        if (key != null && !key.isEmpty()) {
            try {
                from = Integer.parseInt(
                        new String(java.util.Base64.getDecoder().decode(key), java.nio.charset.StandardCharsets.UTF_8));
            } catch (IllegalArgumentException e) {
                throw RestError.invalid("invalid pagination.key");
            }
        }
        int total = chain.genesis().actorCount();
        int start = Math.max(0, Math.min(from, total));
        int end = Math.min(total, start + limit);
        return Reply.json(200, g -> {
            g.writeStartObject();
            g.writeArrayFieldStart("accounts");
            for (int i = start; i < end; i++)
                bank.baseAccount(g, chain.genesis().actor(i));
            g.writeEndArray();
            g.writeObjectFieldStart("pagination");
            if (end < total) {
                g.writeStringField(
                        "next_key",
                        java.util.Base64.getEncoder()
                                .encodeToString(
                                        Integer.toString(end).getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            } else {
                g.writeNullField("next_key");
            }
            g.writeStringField("total", Integer.toString(total));
            g.writeEndObject();
            g.writeEndObject();
        });
    }

    /** minievm's denom → ERC-20 mapping: {@code {"address":"0x…"}} (EIP-55). */
    private Reply byDenom(String denom) {
        if (denom == null || denom.isEmpty()) throw RestError.invalid("empty denom");
        Token t = chain.genesis().tokenByDenom(denom);
        if (t == null) throw RestError.notFound("collections: not found: key '" + denom + "'");
        return Reply.json(200, g -> {
            g.writeStartObject();
            g.writeStringField("address", t.contract().checksum());
            g.writeEndObject();
        });
    }

    private Reply denomOf(String contract) {
        if (!Hex.isHex(contract, 20)) throw RestError.invalid("invalid contract address: " + contract);
        Token t = chain.genesis().tokenAt(Hex.decode(contract));
        if (t == null) throw RestError.notFound("collections: not found: key '" + contract + "'");
        return Reply.json(200, g -> {
            g.writeStartObject();
            g.writeStringField("denom", t.bankDenom());
            g.writeEndObject();
        });
    }

    static Reply error(int status, int code, String message) {
        return Reply.json(status, (JsonOut g) -> RestJson.error(g, code, message));
    }

    @Override
    protected Reply faultReply() {
        return error(500, 13, "devnet: injected fault");
    }

    @Override
    protected Reply internalError(Throwable cause) {
        return error(500, 13, String.valueOf(cause.getMessage()));
    }
}
