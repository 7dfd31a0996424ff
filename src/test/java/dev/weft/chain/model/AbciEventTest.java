package dev.weft.chain.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class AbciEventTest {
    private static final String LOG =
            "{\"address\":\"0x00000000000000000000000000000000000000f1\",\"topics\":[\"" + EvmLog.TRANSFER_TOPIC
                    + "\",\"0x0000000000000000000000000000000000000000000000000000000000000001\"],\"data\":\"0x05\"}";

    @Test
    @DisplayName(
            "an attribute's EVM log is parsed once and shared; a value that is not a log answers null; equality is by key, value, index")
    void evmLogOnce() {
        AbciEvent.Attribute a = new AbciEvent.Attribute("log", LOG, true);
        EvmLog log = a.evmLog();
        assertEquals(
                new EvmLog(
                        "0x00000000000000000000000000000000000000f1",
                        List.of(
                                EvmLog.TRANSFER_TOPIC,
                                "0x0000000000000000000000000000000000000000000000000000000000000001"),
                        "0x05"),
                log);
        assertSame(log, a.evmLog());
        AbciEvent.Attribute plain = new AbciEvent.Attribute("amount", "5uinit", true);
        assertNull(plain.evmLog());
        assertNull(plain.evmLog());
        assertNull(new AbciEvent.Attribute("log", null, false).evmLog());
        assertEquals(new AbciEvent.Attribute("log", LOG, true), a);
        assertEquals(new AbciEvent.Attribute("log", LOG, true).hashCode(), a.hashCode());
        assertNotEquals(new AbciEvent.Attribute("log", LOG, false), a);
        assertEquals("Attribute[key=amount, value=5uinit, index=true]", plain.toString());
    }
}
