package dev.weft.pipeline;

import io.vertx.core.Future;
import java.util.List;

/**
 * What one ordered-commit pipeline fetches and writes; {@link OrderedCommitPipeline} does the rest.
 *
 * @param <S> a target: one height to fetch, with whatever the fetch needs to know about it
 * @param <T> the fetched item of one height
 * @param <P> the writer's position in the database (its cursor, counters and the token of the commit that moved it
 *           last, so two commits of the same heights leave unequal positions)
 * @param <B> a prepared run of consecutive items, ready to commit
 */
public interface Stage<S, T, P, B> {
    /** Up to {@code max} targets above height {@code after}, in increasing height order, and the source's head. */
    Future<Targets<S>> next(long after, int max);

    long targetHeight(S target);

    /** Fetches one target; a failure is retried with backoff, never skipped. */
    Future<T> fetch(S target);

    /**
     * Whether the fetches' node requests queue right now (waiting for a permit of their client, or answered in over
     * twice their least time): more heights in flight would only lengthen the queue.
     */
    default boolean requestsQueueing() {
        return false;
    }

    /** The approximate bytes an item holds while it waits for its commit. */
    long bytes(T item);

    /** The weight of an item against {@link PipelineOptions#commitWeight()} (its txs, its rows). */
    long weight(T item);

    /** Where the database stands. */
    Future<P> position();

    /** The last committed height of a position (0 when none). */
    long height(P position);

    /** The height after which the targets of a position start (by default its height). */
    default long planAfter(P position) {
        return height(position);
    }

    /** What the progress line counts at a position (txs, internal txs). */
    long count(P position);

    /**
     * Builds a run's statements, directly after {@code before}: called on the pipeline's event loop, so the CPU work
     * belongs on a worker thread ({@code executeBlocking}); what it needs from the database first (dictionary ids) it
     * may read before.
     */
    Future<B> prepare(List<T> run, P before);

    /** Where the database stands once {@code batch} is committed: equal to a position read later only if this commit made it. */
    P after(B batch);

    /**
     * Commits a run in one transaction whose first statement checks that the database stands at the run's
     * {@code before}; fails with {@code PositionMovedException} when it does not (nothing written).
     */
    Future<Void> commit(B batch);

    /** A run is committed (also one found committed after its answer was lost): announce it, once, in order. */
    void committed(B batch);
}
