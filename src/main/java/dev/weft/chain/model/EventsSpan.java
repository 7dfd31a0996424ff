package dev.weft.chain.model;

import com.fasterxml.jackson.core.JsonToken;

/**
 * A tx's {@code events} as the node's own JSON bytes, kept only when they are byte for byte what the stored tx record
 * writes for them, so ingestion copies them instead of writing every attribute again (a tenth of its CPU per tx).
 * That holds when the array is compact; each event has {@code type} (not empty) before {@code attributes} (not
 * empty), or only one of them; each attribute has {@code key} (not empty), then {@code value}, then {@code index} only
 * when true; no string escapes anything but {@code \" \\ \n \r \t \b \f}, and none holds a character beyond
 * U+FFFF. A CometBFT node writes events that way (Go's encoding omits empty fields and a false index) unless an
 * attribute's value is empty (then dropped, where the record writes {@code ""}) or a string holds what Go writes as a
 * hexadecimal escape ({@code < > &}, control characters): those events, and any other layout, are written again from their
 * parsed fields.
 */
public record EventsSpan(byte[] source, int start, int end) {

    /** Follows one events array's fields while it is parsed; its span is kept only if every field was in place. */
    static final class Check {
        private boolean ok = true;
        /** Of the current event: 0 before any field, 1 after its type, 2 after its attributes. */
        private int eventField;
        /** Of the current attribute: 0 before any field, 1 after its key, 2 after its value, 3 after its index. */
        private int attributeField;

        void fail() {
            ok = false;
        }

        void startEvent() {
            eventField = 0;
        }

        void type(JsonToken token, String type) {
            if (eventField != 0 || token != JsonToken.VALUE_STRING || type.isEmpty()) ok = false;
            eventField = 1;
        }

        void attributes() {
            if (eventField == 2) ok = false;
            eventField = 2;
        }

        /** The stored record omits an empty attribute list: a node's {@code "attributes":[]} is not copied verbatim. */
        void endAttributes(int count) {
            if (count == 0) ok = false;
        }

        void startAttribute() {
            attributeField = 0;
        }

        void key(JsonToken token, String key) {
            if (attributeField != 0 || token != JsonToken.VALUE_STRING || key.isEmpty()) ok = false;
            attributeField = 1;
        }

        void value(JsonToken token) {
            if (attributeField > 1 || token != JsonToken.VALUE_STRING) ok = false;
            attributeField = 2;
        }

        void index(JsonToken token) {
            if (attributeField != 2 || token != JsonToken.VALUE_TRUE) ok = false;
            attributeField = 3;
        }

        /** The stored record always writes a value: an attribute without one is not copied verbatim. */
        void endAttribute() {
            if (attributeField < 2) ok = false;
        }

        /** The span {@code [start, end)} of {@code source} if every field was in place and its bytes are plain. */
        EventsSpan span(byte[] source, int start, int end) {
            return ok && PlainJson.plain(source, start, end, '[', ']') ? new EventsSpan(source, start, end) : null;
        }
    }
}
