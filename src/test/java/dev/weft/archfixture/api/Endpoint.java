package dev.weft.archfixture.api;

/** Stands for product code of the api package, which the devnet must never import. */
public final class Endpoint {}
