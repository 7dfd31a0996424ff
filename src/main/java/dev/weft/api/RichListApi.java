package dev.weft.api;

import dev.weft.bus.BusError;
import dev.weft.chain.Hex;
import dev.weft.runtime.NodeContext;
import dev.weft.store.RichListStore;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.regex.Pattern;

/**
 * {@code GET /indexer/richlist/v1/{denom}}: the holders of an ERC-20 by balance, largest first (ties by account),
 * offset pages with the exact number of holders. The denom is the token's contract address (any case) or a bank denom
 * ({@code /} given as {@code %2F} or as is), mapped to its contract through the mapping learned at index time (never
 * a node call); an {@code ibc/} hash matches in any case. An unknown well-formed denom gives an empty page. On chains
 * without an EVM there is no rich list: 404.
 */
public final class RichListApi implements ApiModule {
  /** A Cosmos SDK denom. */
  private static final Pattern DENOM = Pattern.compile("[a-zA-Z][a-zA-Z0-9/:._-]{2,127}");

  private final RichListStore store;
  private final boolean evm;

  public RichListApi(NodeContext ctx) {
    this.store = new RichListStore(ctx.pool());
    this.evm = ctx.config().chain().isEvm();
  }

  @Override
  public void mount(Router router) {
    // a regex route: a bank denom's slash may arrive encoded (%2F) or as is (ibc/…, l2/…)
    router.getWithRegex("/indexer/richlist/v1/(?<denom>.+)").handler(this::holders);
  }

  @Override
  public String openApiFragment() {
    return "openapi/richlist.json";
  }

  private void holders(RoutingContext rc) {
    if (!evm) {
      rc.fail(BusError.notFound("rich list is not available on this chain"));
      return;
    }
    String denom = rc.pathParam("denom");
    PageRequest page = PageRequest.parse(rc);
    contract(denom).compose(contract -> contract == null
            ? Future.succeededFuture((JsonObject) null)
            : store.holders(contract, page.reverse(), page.offset(), page.limit(), page.countTotal()).map(p -> {
              JsonArray items = new JsonArray();
              for (RichListStore.Holder h : p.rows()) items.add(new JsonObject().put("account", Hex.prefixed(h.account())).put("amount", h.amount()));
              return new JsonObject().put("holders", items).put("pagination", PageResponse.offset(page, p.more(), p.total()));
            }))
        .onSuccess(body -> Responses.json(rc, body != null ? body
            : new JsonObject().put("holders", new JsonArray()).put("pagination", PageResponse.offset(page, false, 0))))
        .onFailure(rc::fail);
  }

  /** The contract of a denom: the address itself, or the stored mapping of a bank denom (null when unknown). */
  private Future<byte[]> contract(String denom) {
    String d = denom == null ? "" : denom.trim();
    if (d.startsWith("0x") || d.startsWith("0X")) {
      if (!Hex.isHex(d, 20)) throw BusError.invalidValue("denom", denom, "invalid contract address");
      return Future.succeededFuture(Hex.decode(d));
    }
    if (!DENOM.matcher(d).matches()) throw BusError.invalidValue("denom", denom, "invalid denom");
    // minievm's own rule (ContractAddressFromDenom): an "evm/<hex>" denom names its ERC-20 contract; such tokens may
    // never move through bank messages, so the stored mapping would not know them. Any case, as rollytics lower-cases
    // the denom before asking the node
    if (d.regionMatches(true, 0, "evm/", 0, 4) && Hex.isHex("0x" + d.substring(4), 20)) {
      return Future.succeededFuture(Hex.decode("0x" + d.substring(4)));
    }
    return store.contractOf(d);
  }
}
