package dev.weft.archfixture.api;

import dev.weft.archfixture.devnet.Simulator;

/** An HTTP handler that (wrongly) reaches into the devnet. */
public final class Handler {
    public Simulator simulator() {
        return new Simulator();
    }
}
