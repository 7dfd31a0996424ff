package dev.weft.archfixture.node;

/** Stands for the wiring package that nothing may import. */
public final class Wiring {}
