package dev.weft.devnet.rest;

import dev.weft.chain.Bech32;
import dev.weft.chain.Hex;
import dev.weft.devnet.fault.FaultInjector;
import dev.weft.devnet.gen.Block;
import dev.weft.devnet.gen.DevnetChain;
import dev.weft.devnet.gen.Token;
import dev.weft.devnet.gen.Tx;
import dev.weft.devnet.gen.Validator;
import dev.weft.devnet.http.DevnetServer;
import dev.weft.devnet.http.JsonOut;
import dev.weft.devnet.http.Reply;
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
 * The Cosmos REST (gRPC-gateway) API of a simulated node: the routes an indexer and a router use. Errors are the
 * gateway's {@code {"code","message","details"}} with the gRPC code (3 invalid argument → 400, 5 not found → 404).
 */
public final class CosmosRestServer extends DevnetServer {
  private static final int DEFAULT_LIMIT = 100;

  private final DevnetChain chain;
  private final FaultInjector faults;
  private final RestNodeInfo nodeInfo;
  private final RestBroadcast broadcast;
  private java.util.function.Function<Request, Reply> extraRoutes;

  public CosmosRestServer(Vertx vertx, FaultInjector faults, DevnetChain chain) {
    this(vertx, faults, chain, null);
  }

  /** @param broadcaster where broadcast txs go; null when the chain takes none */
  public CosmosRestServer(Vertx vertx, FaultInjector faults, DevnetChain chain, Broadcaster broadcaster) {
    super(vertx, faults);
    this.chain = chain;
    this.faults = faults;
    this.nodeInfo = new RestNodeInfo(chain);
    this.broadcast = new RestBroadcast(broadcaster);
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
    try {
      return Future.succeededFuture(route(r));
    } catch (RestError e) {
      return Future.succeededFuture(error(e.status, e.code, e.getMessage()));
    }
  }

  private Reply route(Request r) {
    String p = r.path();
    Reply extra = extraRoutes == null ? null : extraRoutes.apply(r);
    if (extra != null) return extra;
    if (r.method() == HttpMethod.POST && p.equals("/cosmos/tx/v1beta1/txs")) return broadcast.broadcast(r.body());
    if (r.method() == HttpMethod.POST && p.equals("/cosmos/tx/v1beta1/encode")) return RestBroadcast.encode(r.body());
    if (r.method() != HttpMethod.GET) return error(405, 12, "Method Not Allowed");
    if (p.equals("/cosmos/base/tendermint/v1beta1/blocks/latest")) return latestBlock(requireHead());
    if (p.startsWith("/cosmos/base/tendermint/v1beta1/blocks/")) return latestBlock(height(tail(p, "/cosmos/base/tendermint/v1beta1/blocks/")));
    if (p.equals("/cosmos/base/tendermint/v1beta1/node_info")) return Reply.json(200, nodeInfo::write);
    if (p.startsWith("/cosmos/tx/v1beta1/txs/block/")) return blockWithTxs(height(tail(p, "/cosmos/tx/v1beta1/txs/block/")), r);
    if (p.startsWith("/cosmos/tx/v1beta1/txs/")) return getTx(tail(p, "/cosmos/tx/v1beta1/txs/"));
    if (p.equals("/opinit/opchild/v1/validators")) return Reply.json(200, nodeInfo::validators);
    if (p.startsWith("/opinit/opchild/v1/validator/")) return validator(tail(p, "/opinit/opchild/v1/validator/"));
    if (chain.spec().generated() && p.equals("/cosmos/auth/v1beta1/accounts")) return accounts(r.param("pagination.key"), r.param("pagination.limit"));
    if (chain.spec().generated() && p.equals("/minievm/evm/v1/contracts/by_denom")) return byDenom(r.param("denom"));
    if (chain.spec().generated() && p.startsWith("/minievm/evm/v1/denoms/")) return denomOf(tail(p, "/minievm/evm/v1/denoms/"));
    return error(404, 5, "Not Found");
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
      throw RestError.invalid("requested height " + h + " but height must not be less than 1 or greater than the current height " + head + ": invalid height");
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
      if (offset > 0) throw RestError.invalid("paginate: invalid request, either offset or key is expected, got both");
      offset = decodeKey(key);
    }
    boolean reverse = "true".equalsIgnoreCase(r.param("pagination.reverse"));
    if (offset >= n && n != 0) {
      throw RestError.invalid("out of range: cannot paginate " + n + " txs with offset " + offset + " and limit " + limit + ": invalid request");
    }
    int start = (int) Math.min(offset, n);
    int count = (int) Math.min(limit, n - start);
    String nextKey = start + count < n ? Base64.getEncoder().encodeToString(ByteBuffer.allocate(8).putLong(start + count).array()) : null;
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

  private static long longParam(Request r, String name, long def) {
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

  /** The opchild validator for its operator (valoper) address, which carries the consensus address bytes. */
  private Reply validator(String addr) {
    byte[] bytes;
    try {
      Bech32.Decoded d = Bech32.decode(addr);
      if (!d.prefix().equals(chain.spec().valoperPrefix())) throw new IllegalArgumentException("invalid Bech32 prefix; expected " + chain.spec().valoperPrefix() + ", got " + d.prefix());
      bytes = d.data();
    } catch (RuntimeException e) {
      throw RestError.invalid("decoding bech32 failed: " + e.getMessage());
    }
    for (Validator v : chain.genesis().validators()) {
      if (Arrays.equals(v.address(), bytes)) return Reply.json(200, g -> {
        g.writeStartObject();
        g.writeFieldName("validator");
        RestNodeInfo.validator(g, v);
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
        from = Integer.parseInt(new String(java.util.Base64.getDecoder().decode(key), java.nio.charset.StandardCharsets.UTF_8));
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
      for (int i = start; i < end; i++) {
        dev.weft.devnet.gen.Actor a = chain.genesis().actor(i);
        g.writeStartObject();
        g.writeStringField("@type", "/cosmos.auth.v1beta1.BaseAccount");
        g.writeStringField("address", a.bech32());
        g.writeNullField("pub_key");
        g.writeStringField("account_number", Long.toString(a.accountNumber()));
        g.writeStringField("sequence", "0");
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeObjectFieldStart("pagination");
      if (end < total) {
        g.writeStringField("next_key", java.util.Base64.getEncoder().encodeToString(Integer.toString(end).getBytes(java.nio.charset.StandardCharsets.UTF_8)));
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
