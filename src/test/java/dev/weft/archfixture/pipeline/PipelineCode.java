package dev.weft.archfixture.pipeline;

/** Stands for product code of the pipeline package, which the devnet must never import. */
public final class PipelineCode {}
