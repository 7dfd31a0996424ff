package dev.weft.devnet.gen;

import java.util.List;

/** A CometBFT ABCI event: plain-string attributes (CometBFT 0.38), each flagged for indexing. */
public record Event(String type, List<Attr> attributes) {

    public record Attr(String key, String value, boolean index) {}

    /** The value of the first attribute with that key, or null. */
    public String value(String key) {
        for (Attr a : attributes) if (a.key().equals(key)) return a.value();
        return null;
    }
}
