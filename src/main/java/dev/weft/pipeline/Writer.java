package dev.weft.pipeline;

import io.vertx.core.Future;
import java.util.List;

/**
 * What one ordered-commit pipeline fetches and writes; {@link OrderedCommitPipeline} does the rest (the window, the
 * order, retries, lost answers, the drain). How the pipeline reads heights and sizes off these values is told apart, by
 * {@link Measures}.
 *
 * @param <S> a target: one height to fetch, with whatever the fetch needs to know about it
 * @param <T> the fetched item of one height
 * @param <P> the writer's position in the database (its cursor, counters and the token of the commit that moved it
 *           last, so two commits of the same heights leave unequal positions)
 * @param <B> a prepared run of consecutive items, ready to commit
 */
public interface Writer<S, T, P, B> {
    /** Up to {@code max} targets above height {@code after}, in increasing height order, and the source's head. */
    Future<Targets<S>> next(long after, int max);

    /** Fetches one target; a failure is retried with backoff, never skipped. */
    Future<T> fetch(S target);

    /**
     * Builds a run's statements, directly after {@code before}: called on the pipeline's event loop, so the CPU work
     * belongs on a worker thread ({@code executeBlocking}); what it needs from the database first (dictionary ids) it
     * may read before.
     */
    Future<B> prepare(List<T> run, P before);

    /**
     * Commits a run in one transaction whose first statement checks that the database stands at the run's
     * {@code before}; fails with {@code PositionMovedException} when it does not (nothing written).
     */
    Future<Void> commit(B batch);

    /**
     * Where the database stands: read at the start and after a failure, when it also resolves a commit whose answer was
     * lost: that commit went through if and only if the database stands where its batch leaves it
     * ({@link Measures#after}).
     */
    Future<P> position();

    /** A run is committed (also one found committed after its answer was lost): announce it, once, in order. */
    void committed(B batch);

    /**
     * Whether the fetches' node requests queue right now (waiting for a permit of their client, or answered in over
     * twice their least time): more heights in flight would only lengthen the queue.
     */
    default boolean requestsQueueing() {
        return false;
    }
}
