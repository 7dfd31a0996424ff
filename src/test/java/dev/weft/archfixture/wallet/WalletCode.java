package dev.weft.archfixture.wallet;

/** Stands for product code of the wallet package, which the devnet must never import. */
public final class WalletCode {}
