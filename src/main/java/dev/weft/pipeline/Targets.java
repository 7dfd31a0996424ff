package dev.weft.pipeline;

import java.util.List;

/**
 * What a pipeline's source offers above a height: the next targets in increasing height order, and the highest height
 * the source knows (the node's head for ingestion, the ingest cursor for the EVM tracer).
 */
public record Targets<S>(List<S> targets, long head) {}
