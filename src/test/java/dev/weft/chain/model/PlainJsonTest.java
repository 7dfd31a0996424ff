package dev.weft.chain.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class PlainJsonTest {
    @Test
    @DisplayName(
            "eight bytes at a time, the same answer as looking at every byte, wherever the byte that matters falls")
    void sameAsByteByByte() {
        byte[] alphabet = {
            'a',
            '"',
            '\\',
            'n',
            'r',
            't',
            'b',
            'f',
            'u',
            '/',
            ' ',
            '\n',
            '\t',
            '\r',
            0x01,
            (byte) 0xF0,
            (byte) 0xF8,
            (byte) 0xE2,
            (byte) 0x80,
            (byte) 0xC3,
            '0',
            '{',
            '}',
            '[',
            ']'
        };
        Random rnd = new Random(3);
        int plain = 0;
        for (int k = 0; k < 200_000; k++) {
            byte[] b = new byte[2 + rnd.nextInt(40)];
            for (int i = 0; i < b.length; i++)
                b[i] = rnd.nextInt(6) == 0 ? alphabet[rnd.nextInt(alphabet.length)] : (byte) 'x';
            b[0] = '[';
            b[b.length - 1] = ']';
            boolean expected = byteByByte(b);
            assertEquals(
                    expected, PlainJson.plain(b, 0, b.length, '[', ']'), new String(b, StandardCharsets.ISO_8859_1));
            if (expected) plain++;
        }
        assertTrue(plain > 10_000 && plain < 190_000, "both answers drawn: " + plain);
    }

    @Test
    @DisplayName("the span must open and close as asked and lie within the bytes")
    void bounds() {
        byte[] b = "{\"a\":\"b\\\"c\"}".getBytes(StandardCharsets.UTF_8);
        assertTrue(PlainJson.plain(b, 0, b.length, '{', '}'));
        assertFalse(PlainJson.plain(b, 0, b.length, '[', ']'));
        assertFalse(PlainJson.plain(b, 0, b.length + 1, '{', '}'));
        assertFalse(PlainJson.plain(b, -1, b.length, '{', '}'));
        assertFalse(PlainJson.plain(b, 3, 3, '{', '}'));
    }

    private static boolean byteByByte(byte[] b) {
        for (int i = 0; i < b.length; i++) {
            int c = b[i] & 0xFF;
            if (c <= ' ' || c >= 0xF0) return false;
            if (c == '\\') {
                if (++i >= b.length) return false;
                if ("\"\\nrtbf".indexOf(b[i]) < 0) return false;
            }
        }
        return true;
    }
}
