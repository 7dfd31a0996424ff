package dev.weft.pipeline;

import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * How a pipeline reads a {@link Writer}'s values (method references, mostly): the height of a target, the size of a
 * fetched item, the height and count of a position, and the position a batch leaves.
 *
 * @param targetHeight the height of a target
 * @param bytes        the approximate bytes an item holds while it waits for its commit
 * @param weight       the weight of an item against {@link PipelinePolicy#commitWeight()} (its txs, its rows)
 * @param height       the last committed height of a position (0 when none)
 * @param count        what the progress line counts at a position (txs, internal txs)
 * @param countUnit    what that count is called in the progress line ("txs", "internal txs")
 * @param after        where the database stands once a batch is committed: equal to a position read later only if
 *                     this commit made it
 */
public record Measures<S, T, P, B>(
        ToLongFunction<S> targetHeight,
        ToLongFunction<T> bytes,
        ToLongFunction<T> weight,
        ToLongFunction<P> height,
        ToLongFunction<P> count,
        String countUnit,
        Function<B, P> after) {}
