package dev.weft.archfixture.config;

import dev.weft.archfixture.store.RowStore;

/** A leaf that (wrongly) imports the store. */
public final class LeafConfig {
    public RowStore store() {
        return new RowStore();
    }
}
