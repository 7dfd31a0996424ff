package dev.weft.archfixture.b;

import dev.weft.archfixture.a.CycleA;

/** The other half of the deliberate package cycle of {@link CycleA}. */
public final class CycleB {
    public CycleA partner() {
        return new CycleA();
    }
}
