package dev.weft.archfixture.track;

/** Stands for product code of the track package, which the devnet must never import. */
public final class TrackCode {}
