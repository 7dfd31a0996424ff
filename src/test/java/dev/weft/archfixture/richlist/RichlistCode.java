package dev.weft.archfixture.richlist;

/** Stands for product code of the richlist package, which the devnet must never import. */
public final class RichlistCode {}
