package dev.weft.archfixture.devnet;

/** Stands for the devnet, which only the wiring may start. */
public final class Simulator {}
