package dev.weft.webhook;

import dev.weft.api.EventQuery;
import dev.weft.api.EventsApi;
import dev.weft.bus.Addresses;
import dev.weft.config.WebhooksConfig;
import dev.weft.runtime.NodeContext;
import dev.weft.store.EventStore;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers the event log to the webhooks (a single writer: one node of a cluster runs it). Each webhook has one
 * worker that reads the events after its durable cursor matching its filters, a page at a time, and POSTs them one by
 * one in sequence order; the cursor moves in the database only after a 2xx (or after the event went to the dead
 * letters), so a crash repeats at most the delivery in flight. Failed attempts (timeout, connection error, 5xx, 408,
 * 429) are retried after an exponential backoff with full jitter; any other answer, and {@code webhooks.max_attempts}
 * failures, dead-letter the event and the worker moves on (a dead letter does not hold back the events after it).
 * Re-driven dead letters go before new events. At most {@code webhooks.max_concurrent} requests are in flight over all
 * webhooks; the worker is woken by {@code weft.updates.events}, by changes and every {@code webhooks.poll_interval}.
 */
public final class WebhookDeliveryVerticle extends VerticleBase {
    private static final Logger LOG = LoggerFactory.getLogger(WebhookDeliveryVerticle.class);
    static final int PAGE = 100;
    /** Response bodies are ignored: at most this much is read before the connection is dropped. */
    static final int RESPONSE_CAP = 4096;

    private final NodeContext ctx;
    private final WebhooksConfig cfg;
    private WebhookStore store;
    private EventStore events;
    private TargetGuard guard;
    private WebhookMetrics metrics;
    private HttpClient http;
    private final Map<String, Worker> workers = new HashMap<>();
    private final Deque<Runnable> slotWaiters = new ArrayDeque<>();
    private int inFlight;
    private long head;
    private long poll = -1;
    private boolean stopped;
    private boolean reloading;
    private boolean reloadAgain;

    public WebhookDeliveryVerticle(NodeContext ctx) {
        this.ctx = ctx;
        this.cfg = ctx.config().webhooks();
    }

    @Override
    public Future<?> start() {
        store = new WebhookStore(ctx.pool());
        events = new EventStore(ctx.pool());
        guard = new TargetGuard(vertx, cfg.allowPrivateTargets());
        metrics = WebhookMetrics.get();
        int timeout = (int) cfg.timeout().toMillis();
        http = vertx.createHttpClient(
                new HttpClientOptions()
                        .setKeepAlive(true)
                        .setConnectTimeout(timeout)
                        .setMaxRedirects(0),
                new PoolOptions().setHttp1MaxSize(4).setMaxWaitQueueSize(cfg.maxConcurrent()));
        vertx.eventBus().<JsonObject>consumer(Addresses.EVENTS_APPENDED, m -> appended(m.body()));
        vertx.eventBus().<JsonObject>consumer(Addresses.WEBHOOKS_CHANGED, m -> reload());
        poll = vertx.setPeriodic(cfg.pollInterval().toMillis(), t -> reload());
        reload();
        return Future.succeededFuture();
    }

    @Override
    public Future<?> stop() {
        stopped = true;
        if (poll >= 0) vertx.cancelTimer(poll);
        workers.values().forEach(w -> w.stopped = true);
        return http.close();
    }

    private void appended(JsonObject body) {
        Long seq = body == null ? null : body.getLong("sequence");
        if (seq == null) {
            reload();
            return;
        }
        head = Math.max(head, seq);
        workers.values().forEach(Worker::kick);
    }

    /** Reads the webhooks and the log's head: new webhooks get a worker, deleted ones lose theirs; every worker is kicked. */
    private void reload() {
        if (stopped) return;
        if (reloading) {
            reloadAgain = true;
            return;
        }
        reloading = true;
        reloadAgain = false;
        events.bounds()
                .compose(b -> store.list().map(list -> {
                    head = Math.max(head, b.last());
                    return list;
                }))
                .onComplete(ar -> {
                    reloading = false;
                    if (ar.failed()) {
                        LOG.warn("webhooks could not be read: {}", ar.cause().getMessage());
                    } else {
                        sync(ar.result());
                    }
                    if (reloadAgain) reload();
                });
    }

    private void sync(List<WebhookStore.Hook> hooks) {
        Set<String> seen = new HashSet<>();
        for (WebhookStore.Hook h : hooks) {
            seen.add(h.id());
            Worker w = workers.get(h.id());
            if (w == null) {
                try {
                    w = new Worker(h);
                } catch (RuntimeException e) {
                    LOG.warn("webhook {} has filters that no longer parse: {}", h.id(), e.getMessage());
                    continue;
                }
                workers.put(h.id(), w);
            }
            if (h.redrivePending()) w.redrive = true;
            if (!w.running) w.position = Math.max(w.position, h.cursor());
            metrics.hook(h.id(), head - w.position, h.deadLetters());
        }
        workers.entrySet().removeIf(e -> {
            if (seen.contains(e.getKey())) return false;
            e.getValue().stopped = true;
            metrics.removed(e.getKey());
            return true;
        });
        workers.values().forEach(Worker::kick);
    }

    // ---- concurrency ----

    private Future<Void> slot() {
        if (inFlight < cfg.maxConcurrent()) {
            inFlight++;
            metrics.inFlight(inFlight);
            return Future.succeededFuture();
        }
        Promise<Void> p = Promise.promise();
        slotWaiters.add(() -> p.complete());
        return p.future();
    }

    private void release() {
        Runnable next = slotWaiters.poll();
        if (next != null) {
            next.run(); // the slot passes on as it is
            return;
        }
        inFlight--;
        metrics.inFlight(inFlight);
    }

    /** The result of one attempt: the HTTP status, or -1 (may be retried) or -2 (target refused) with an error. */
    record Attempt(int status, String error) {
        boolean ok() {
            return status >= 200 && status < 300;
        }

        boolean retriable() {
            return status == -1 || status == 408 || status == 429 || status >= 500;
        }

        String describe() {
            return status < 0 ? error : "HTTP " + status;
        }
    }

    /** The final result of a delivery: delivered, or not (with the attempts made and the last error). */
    record Result(boolean delivered, int attempts, String error) {}

    /** One POST to the webhook's URL, its address checked and pinned, with the request's deadline. */
    private Future<Attempt> post(Worker w, byte[] body) {
        return guard.resolve(w.hook.url()).transform(r -> {
            if (r.failed()) {
                // a name that does not resolve may resolve later; a refused address stays refused
                String why = r.cause().getMessage();
                return Future.succeededFuture(new Attempt(why.contains("does not resolve") ? -1 : -2, why));
            }
            TargetGuard.Target t = r.result();
            long now = System.currentTimeMillis() / 1000;
            RequestOptions o = new RequestOptions()
                    .setMethod(HttpMethod.POST)
                    .setServer(SocketAddress.inetSocketAddress(t.port(), TargetGuard.literal(t.address())))
                    .setHost(t.host())
                    .setPort(t.port())
                    .setSsl(t.ssl())
                    .setURI(t.pathAndQuery())
                    .setFollowRedirects(false)
                    .setConnectTimeout(cfg.timeout().toMillis())
                    .putHeader("content-type", "application/json")
                    .putHeader("user-agent", "Weft-Webhooks/" + ctx.build().version())
                    .putHeader(Signature.HEADER, Signature.header(w.hook.secret(), now, body));
            Promise<Attempt> p = Promise.promise();
            HttpClientRequest[] req = new HttpClientRequest[1];
            long timer = vertx.setTimer(cfg.timeout().toMillis(), x -> {
                if (req[0] != null) req[0].reset();
                p.tryComplete(new Attempt(-1, "timed out after " + cfg.timeout().toMillis() + " ms"));
            });
            http.request(o)
                    .compose(q -> {
                        req[0] = q;
                        return q.send(Buffer.buffer(body));
                    })
                    .onComplete(ar -> {
                        if (ar.failed()) {
                            p.tryComplete(
                                    new Attempt(-1, "connection: " + ar.cause().getMessage()));
                            return;
                        }
                        int status = ar.result().statusCode();
                        int[] read = {0};
                        ar.result().handler(b -> {
                            read[0] += b.length();
                            if (read[0] > RESPONSE_CAP) {
                                req[0].reset();
                                p.tryComplete(new Attempt(status, null));
                            }
                        });
                        ar.result().exceptionHandler(e -> p.tryComplete(new Attempt(status, null)));
                        ar.result().endHandler(v -> p.tryComplete(new Attempt(status, null)));
                    });
            return p.future().onComplete(x -> vertx.cancelTimer(timer));
        });
    }

    /** Up to {@code webhooks.max_attempts} attempts with backoff between them; a non-retriable answer ends at once. */
    private Future<Result> deliver(Worker w, byte[] body, int attempt) {
        if (w.stopped) return Future.failedFuture("stopped");
        return slot().compose(v -> post(w, body).onComplete(x -> release())).compose(a -> {
            if (a.ok()) return Future.succeededFuture(new Result(true, attempt, null));
            // stopping (lease lost, webhook deleted) is not the receiver's failure: nothing is dead-lettered for it
            if (w.stopped) return Future.failedFuture("stopped");
            if (!a.retriable() || attempt >= cfg.maxAttempts()) {
                return Future.succeededFuture(new Result(false, attempt, a.describe()));
            }
            metrics.outcome(WebhookMetrics.RETRIED);
            Promise<Result> next = Promise.promise();
            vertx.setTimer(
                    Backoff.delay(
                            cfg.backoffBase().toMillis(),
                            cfg.backoffMax().toMillis(),
                            attempt,
                            ThreadLocalRandom.current()),
                    t -> deliver(w, body, attempt + 1).onComplete(next));
            return next.future();
        });
    }

    /** A webhook's delivery loop: one run at a time, in sequence order. */
    private final class Worker {
        final WebhookStore.Hook hook;
        final EventQuery filters;
        long position;
        boolean running;
        boolean again;
        boolean redrive;
        boolean stopped;

        Worker(WebhookStore.Hook hook) {
            this.hook = hook;
            MultiMap m = MultiMap.caseInsensitiveMultiMap();
            hook.filters().forEach(e -> m.add(e.getKey(), String.valueOf(e.getValue())));
            this.filters = EventQuery.filters(m);
            this.position = hook.cursor();
        }

        void kick() {
            if (stopped || WebhookDeliveryVerticle.this.stopped) return;
            if (running) {
                again = true;
                return;
            }
            if (!redrive && position >= head) return;
            running = true;
            again = false;
            Future<Boolean> run = redrive ? redriveBatch() : page();
            run.onComplete(ar -> {
                running = false;
                if (ar.failed()) {
                    if (!stopped)
                        LOG.warn("webhook {}: {}", hook.id(), ar.cause().getMessage());
                    return; // the next poll tries again
                }
                metrics.hook(hook.id(), head - position, -1);
                if (ar.result() || again) kick();
            });
        }

        /** Delivers one page of events after the position; answers whether there may be more at once. */
        Future<Boolean> page() {
            long seen = head;
            return events.after(filters.store(position, PAGE)).compose(p -> {
                if (p.gone(position)) {
                    LOG.warn(
                            "webhook {}: events after {} were pruned by retention before delivery; resuming after {}",
                            hook.id(),
                            position,
                            p.prunedThrough());
                    position = p.prunedThrough();
                    return store.advance(hook.id(), position).map(true);
                }
                return each(p.events(), 0).compose(v -> {
                    if (p.events().size() == PAGE) return Future.succeededFuture(true);
                    // every matching event up to the head seen before the read was in the page: skip the rest
                    if (seen > position) {
                        position = seen;
                        return store.advance(hook.id(), seen).map(false);
                    }
                    return Future.succeededFuture(false);
                });
            });
        }

        private Future<Void> each(List<EventStore.Event> list, int i) {
            if (i >= list.size() || stopped) return Future.succeededFuture();
            EventStore.Event e = list.get(i);
            String body = body(hook.id(), e);
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            return deliver(this, bytes, 1)
                    .compose(r -> {
                        if (r.delivered()) {
                            metrics.outcome(WebhookMetrics.DELIVERED);
                            return store.advance(hook.id(), e.sequence());
                        }
                        metrics.outcome(WebhookMetrics.DEAD_LETTERED);
                        metrics.deadLettered(hook.id());
                        LOG.info(
                                "webhook {}: event {} dead-lettered after {} attempts: {}",
                                hook.id(),
                                e.sequence(),
                                r.attempts(),
                                r.error());
                        return store.deadLetter(
                                hook.id(), e.sequence(), body, r.attempts(), r.error(), cfg.maxDeadLetters());
                    })
                    .compose(v -> {
                        position = Math.max(position, e.sequence());
                        return each(list, i + 1);
                    });
        }

        /** Delivers the dead letters asked to be re-driven; answers true (the loop then goes on with new events). */
        Future<Boolean> redriveBatch() {
            return store.deadLetters(hook.id(), 0, PAGE, true).compose(list -> {
                if (list.isEmpty()) {
                    redrive = false;
                    return Future.succeededFuture(true);
                }
                return redriveEach(list, 0).map(true);
            });
        }

        private Future<Void> redriveEach(List<WebhookStore.DeadLetter> list, int i) {
            if (i >= list.size() || stopped) return Future.succeededFuture();
            WebhookStore.DeadLetter d = list.get(i);
            return deliver(this, d.body().getBytes(StandardCharsets.UTF_8), 1)
                    .compose(r -> {
                        if (r.delivered()) {
                            metrics.outcome(WebhookMetrics.REDRIVEN);
                            return store.redriven(hook.id(), d.sequence());
                        }
                        return store.redriveFailed(hook.id(), d.sequence(), r.attempts(), r.error());
                    })
                    .compose(v -> redriveEach(list, i + 1));
        }
    }

    /** What a delivery carries: a stable id (webhook and sequence), the event's keys, and the event as /v1/events shows it. */
    static String body(String webhookId, EventStore.Event e) {
        return new JsonObject()
                .put("id", webhookId + ":" + e.sequence())
                .put("webhook_id", webhookId)
                .put("sequence", e.sequence())
                .put("chain_id", e.chainId())
                .put("topic", e.topic())
                .put("event", EventsApi.json(e))
                .encode();
    }
}
