package dev.weft.archfixture.ingest;

/** Stands for product code of the ingest package, which the devnet must never import. */
public final class IngestCode {}
