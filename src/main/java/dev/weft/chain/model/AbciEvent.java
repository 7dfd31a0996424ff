package dev.weft.chain.model;

import java.util.List;
import java.util.Objects;

/** A CometBFT {@code abci.Event} as {@code /block_results} shows it: a type and ordered attributes. */
public record AbciEvent(String type, List<Attribute> attributes) {

    /**
     * One attribute: a key, a value, the index flag. A class rather than a record only so that its value, read as an
     * EVM log ({@link #evmLog}), is parsed once for the several readers of a tx's events (its accounts, its transfers,
     * its NFTs), on whichever worker thread asks first.
     */
    public static final class Attribute {
        /** What {@link #evmLog} holds for a value that is not an EVM log. */
        private static final Object NOT_A_LOG = new Object();

        private final String key;
        private final String value;
        private final boolean index;
        /** null until asked, then the parsed {@link EvmLog} or {@link #NOT_A_LOG}; one reference, safely published. */
        private volatile Object log;

        public Attribute(String key, String value, boolean index) {
            this.key = key;
            this.value = value;
            this.index = index;
        }

        public String key() {
            return key;
        }

        public String value() {
            return value;
        }

        public boolean index() {
            return index;
        }

        /** The value parsed as an EVM log ({@link EvmLog#parse}), once; null when it is not one. */
        public EvmLog evmLog() {
            Object l = log;
            if (l == null) {
                EvmLog parsed = value == null ? null : EvmLog.parse(value);
                l = parsed == null ? NOT_A_LOG : parsed;
                log = l;
            }
            return l == NOT_A_LOG ? null : (EvmLog) l;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Attribute a
                    && index == a.index
                    && Objects.equals(key, a.key)
                    && Objects.equals(value, a.value);
        }

        @Override
        public int hashCode() {
            return Objects.hash(key, value, index);
        }

        @Override
        public String toString() {
            return "Attribute[key=" + key + ", value=" + value + ", index=" + index + "]";
        }
    }
}
