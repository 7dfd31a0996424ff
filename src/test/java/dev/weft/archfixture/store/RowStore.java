package dev.weft.archfixture.store;

import dev.weft.archfixture.node.Wiring;

/** A store that (wrongly) imports the wiring: breaks both "nothing imports node" and "store depends on models only". */
public final class RowStore {
    public Wiring wiring() {
        return new Wiring();
    }
}
