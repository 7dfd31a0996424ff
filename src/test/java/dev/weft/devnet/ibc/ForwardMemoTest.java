package dev.weft.devnet.ibc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** PFM memos as the middleware reads them, and the test failure rules. */
class ForwardMemoTest {

    @Test
    @DisplayName("forward with a nested next (object or JSON string), Go durations and nanoseconds; no forward: null")
    void parse() {
        ForwardMemo m = ForwardMemo.parse(
                "{\"forward\":{\"receiver\":\"r\",\"port\":\"transfer\",\"channel\":\"channel-1\",\"timeout\":\"1h30m\","
                        + "\"retries\":2,\"next\":{\"forward\":{\"receiver\":\"s\",\"port\":\"transfer\",\"channel\":\"channel-2\"}}}}");
        assertEquals(
                new ForwardMemo(
                        "r",
                        "transfer",
                        "channel-1",
                        Duration.ofMinutes(90),
                        2,
                        "{\"forward\":{\"receiver\":\"s\",\"port\":\"transfer\",\"channel\":\"channel-2\"}}"),
                m);
        assertEquals(
                Duration.ofMinutes(5),
                ForwardMemo.parse("{\"forward\":{\"receiver\":\"r\",\"port\":\"p\",\"channel\":\"c\"}}")
                        .timeout());
        assertEquals(
                Duration.ofNanos(1500),
                ForwardMemo.parse(
                                "{\"forward\":{\"receiver\":\"r\",\"port\":\"p\",\"channel\":\"c\",\"timeout\":1500}}")
                        .timeout());
        assertEquals(
                "{\"wasm\":{}}",
                ForwardMemo.parse(
                                "{\"forward\":{\"receiver\":\"r\",\"port\":\"p\",\"channel\":\"c\",\"next\":\"{\\\"wasm\\\":{}}\"}}")
                        .next());
        assertNull(ForwardMemo.parse(""));
        assertNull(ForwardMemo.parse("hello"));
        assertNull(ForwardMemo.parse("{\"move\":{}}"));
        assertThrows(
                IllegalArgumentException.class,
                () -> ForwardMemo.parse("{\"forward\":{\"port\":\"p\",\"channel\":\"c\"}}"));
        assertThrows(
                IllegalArgumentException.class,
                () -> ForwardMemo.parse(
                        "{\"forward\":{\"receiver\":\"r\",\"port\":\"p\",\"channel\":\"c\",\"timeout\":\"soon\"}}"));
    }

    @Test
    @DisplayName("failure rules match receivers by address bytes: bech32 of any prefix or 0x hex")
    void rules() {
        String init = "init1rvdr7nz7d4agh8qdrchn5j6ud4lglxstnn40t5";
        String hex = "0x"
                + dev.weft.chain.Hex.lower(
                        dev.weft.chain.AccountAddress.parse(init, "init").bytes());
        String cosmos = dev.weft.chain.AccountAddress.parse(init, "init").bech32("cosmos");
        FailureRules r = new FailureRules(List.of(hex), List.of(cosmos, "not-an-address"));
        assertTrue(r.timesOut(init));
        assertTrue(r.fails(init));
        assertTrue(r.fails("not-an-address"));
        assertFalse(r.timesOut("init1qqqsyqcyq5rqwzqfpg9scrgwpugpzysnzs23v6"));
        assertFalse(FailureRules.none().fails(init));
    }
}
