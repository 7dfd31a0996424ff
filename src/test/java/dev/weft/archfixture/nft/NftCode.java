package dev.weft.archfixture.nft;

/** Stands for product code of the nft package, which the devnet must never import. */
public final class NftCode {}
