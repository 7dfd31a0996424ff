package dev.weft.webhook;

import dev.weft.api.AdminApi;
import dev.weft.api.ApiModule;
import dev.weft.api.EventQuery;
import dev.weft.api.IndexerParams;
import dev.weft.api.Responses;
import dev.weft.api.StrictJson;
import dev.weft.bus.Addresses;
import dev.weft.bus.BusError;
import dev.weft.config.WebhooksConfig;
import dev.weft.runtime.NodeContext;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@code /v1/webhooks}: create ({@code {url, secret, filters?, after?}}), list, read and delete webhooks, read their
 * dead letters and re-drive them. Outbound delivery is privileged, so every route sits behind the admin token (as
 * {@code /admin/*}) and is served only where the admin API is (a node without {@code admin.token} answers 404, as it
 * does for {@code /admin/*}). The filters are {@code /v1/events}'s, parsed by {@link EventQuery}; the URL is checked by
 * {@link TargetGuard} (and again at every delivery).
 */
public final class WebhooksApi implements ApiModule {
    static final Pattern ID = Pattern.compile("wh_[0-9a-f]{24}");
    static final int MIN_SECRET = 16;
    static final int MAX_SECRET = 256;
    private static final Set<String> FIELDS = Set.of("url", "secret", "filters", "after");
    private static final SecureRandom RANDOM = new SecureRandom();

    private final NodeContext ctx;
    private final WebhooksConfig cfg;
    private final TargetGuard guard;
    private WebhookStore store;

    public WebhooksApi(NodeContext ctx) {
        this.ctx = ctx;
        this.cfg = ctx.config().webhooks();
        this.guard = new TargetGuard(ctx.vertx(), cfg.allowPrivateTargets());
    }

    private boolean served() {
        return AdminApi.enabled(ctx) && ctx.pool() != null;
    }

    @Override
    public void mount(Router router) {
        if (!served()) return;
        store = new WebhookStore(ctx.pool());
        router.route("/v1/webhooks").handler(this::authorize);
        router.route("/v1/webhooks/*").handler(this::authorize);
        router.post("/v1/webhooks").handler(this::create);
        router.get("/v1/webhooks").handler(this::list);
        router.get("/v1/webhooks/:id").handler(this::get);
        router.delete("/v1/webhooks/:id").handler(this::delete);
        router.get("/v1/webhooks/:id/dead-letters").handler(this::deadLetters);
        router.post("/v1/webhooks/:id/dead-letters/redrive").handler(this::redrive);
    }

    @Override
    public String openApiFragment() {
        return served() ? "openapi/webhooks.json" : null;
    }

    private void authorize(RoutingContext rc) {
        AdminApi.authorize(ctx, rc);
    }

    private void create(RoutingContext rc) {
        JsonObject body = StrictJson.object(rc);
        for (String field : body.fieldNames())
            if (!FIELDS.contains(field))
                throw BusError.badRequest("unknown field " + field + " (known: after, filters, secret, url)");
        if (!(body.getValue("url") instanceof String url) || url.isBlank())
            throw BusError.badRequest("url is required: the http(s) URL deliveries are POSTed to");
        if (!(body.getValue("secret") instanceof String secret))
            throw BusError.badRequest("secret is required: the key of the deliveries' HMAC-SHA256 signature");
        if (secret.length() < MIN_SECRET || secret.length() > MAX_SECRET)
            throw BusError.badRequest("secret must have " + MIN_SECRET + " to " + MAX_SECRET + " characters");
        JsonObject filters = filters(body.getValue("filters"));
        Object afterValue = body.getValue("after");
        Long after = null;
        if (afterValue != null) {
            if (!(afterValue instanceof Number n) || n instanceof Double || n instanceof Float || n.longValue() < 0)
                throw BusError.badRequest("after must be a sequence (a whole number, 0 or more)");
            after = n.longValue();
        }
        TargetGuard.parse(url);
        String id = "wh_" + HexFormat.of().formatHex(bytes(12));
        Long start = after;
        guard.resolve(url)
                .compose(t -> store.create(id, url, secret, filters, start, cfg.maxWebhooks()))
                .onComplete(ar -> {
                    if (ar.failed()) {
                        rc.fail(ar.cause());
                        return;
                    }
                    changed(id);
                    Responses.json(rc, 201, ar.result().json());
                });
    }

    private static byte[] bytes(int n) {
        byte[] b = new byte[n];
        RANDOM.nextBytes(b);
        return b;
    }

    /** The filters object: string values only, each checked as {@code /v1/events} checks its parameter. */
    static JsonObject filters(Object value) {
        if (value == null) return new JsonObject();
        if (!(value instanceof JsonObject o))
            throw BusError.badRequest("filters must be an object of /v1/events filters (chain_id, topic, account,"
                    + " tx_hash, transfer)");
        MultiMap params = MultiMap.caseInsensitiveMultiMap();
        JsonObject out = new JsonObject();
        for (String name : o.fieldNames()) {
            if (!(o.getValue(name) instanceof String v))
                throw BusError.badRequest("filter " + name + " must be a string");
            params.add(name, v);
            out.put(name, v.trim());
        }
        EventQuery.filters(params);
        return out;
    }

    private void list(RoutingContext rc) {
        store.list().onComplete(ar -> {
            if (ar.failed()) {
                rc.fail(ar.cause());
                return;
            }
            JsonArray hooks = new JsonArray();
            ar.result().forEach(h -> hooks.add(h.json()));
            Responses.json(rc, new JsonObject().put("webhooks", hooks));
        });
    }

    /** The webhook of the path, or a 404. */
    private Future<WebhookStore.Hook> existing(RoutingContext rc) {
        String id = rc.pathParam("id");
        if (id == null || !ID.matcher(id).matches())
            return Future.failedFuture(BusError.notFound("no such webhook (ids look like wh_ and 24 hex digits)"));
        return store.get(id)
                .compose(h -> h == null
                        ? Future.failedFuture(BusError.notFound("no webhook " + id))
                        : Future.succeededFuture(h));
    }

    private void get(RoutingContext rc) {
        Responses.reply(rc, existing(rc).map(WebhookStore.Hook::json));
    }

    private void delete(RoutingContext rc) {
        existing(rc).compose(h -> store.delete(h.id()).map(h)).onComplete(ar -> {
            if (ar.failed()) {
                rc.fail(ar.cause());
                return;
            }
            changed(ar.result().id());
            rc.response().setStatusCode(204).end();
        });
    }

    private void deadLetters(RoutingContext rc) {
        MultiMap q = rc.queryParams();
        for (String name : q.names()) {
            if (!name.equals("after") && !name.equals("limit"))
                throw BusError.badRequest("unknown parameter " + name + " (known: after, limit)");
            if (q.getAll(name).size() > 1) throw BusError.badRequest("parameter " + name + " given more than once");
        }
        long after = number(q.get("after"), "after", 0, 0, Long.MAX_VALUE);
        int limit = (int) number(q.get("limit"), "limit", 100, 1, 1000);
        Responses.reply(
                rc,
                existing(rc)
                        .compose(h -> store.deadLetters(h.id(), after, limit, false))
                        .map(list -> {
                            JsonArray out = new JsonArray();
                            long next = after;
                            for (WebhookStore.DeadLetter d : list) {
                                out.add(d.json());
                                next = d.sequence();
                            }
                            return new JsonObject().put("dead_letters", out).put("next", next);
                        }));
    }

    private static long number(String v, String name, long def, long min, long max) {
        if (v == null) return def;
        long n;
        try {
            n = IndexerParams.wholeNumber(v);
        } catch (RuntimeException e) {
            throw BusError.invalidValue(name, v, "must be a whole number");
        }
        if (n < min || n > max) throw BusError.invalidValue(name, v, "must be between " + min + " and " + max);
        return n;
    }

    private void redrive(RoutingContext rc) {
        Object body = rc.body() == null || rc.body().length() == 0 ? null : StrictJson.object(rc);
        if (body instanceof JsonObject o && !o.isEmpty())
            throw BusError.badRequest("the re-drive takes no fields (an empty body or {})");
        existing(rc)
                .compose(h -> store.redrive(h.id())
                        .map(n -> new JsonObject().put("id", h.id()).put("redriving", n)))
                .onComplete(ar -> {
                    if (ar.failed()) {
                        rc.fail(ar.cause());
                        return;
                    }
                    changed(ar.result().getString("id"));
                    Responses.json(rc, 202, ar.result());
                });
    }

    private void changed(String id) {
        ctx.vertx().eventBus().publish(Addresses.WEBHOOKS_CHANGED, new JsonObject().put("id", id));
    }
}
