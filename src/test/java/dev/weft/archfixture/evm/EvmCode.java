package dev.weft.archfixture.evm;

/** Stands for product code of the evm package, which the devnet must never import. */
public final class EvmCode {}
