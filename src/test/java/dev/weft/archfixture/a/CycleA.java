package dev.weft.archfixture.a;

import dev.weft.archfixture.b.CycleB;

/** Half of a deliberate package cycle: ArchitectureTest proves its cycle rules report it. */
public final class CycleA {
    public CycleB partner() {
        return new CycleB();
    }
}
