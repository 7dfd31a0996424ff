package dev.weft.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.EncodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@link JsonBytes} against Vert.x's own encoding: the same bytes for every tree. */
class JsonBytesTest {

    private static void same(JsonObject o) {
        assertEquals(o.toBuffer().toString(), JsonBytes.encode(o).toString(), () -> "for " + o.encode());
        assertEquals(o.toBuffer(), JsonBytes.encode(o));
    }

    @Test
    @DisplayName("every recorded node response and registry file of the fixtures encodes to Vert.x's bytes")
    void recordedFixtures() throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(Path.of("src/test/resources/fixtures"))) {
            files = walk.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
        int checked = 0;
        for (Path f : files) {
            Object parsed = Buffer.buffer(Files.readAllBytes(f)).toJsonValue();
            if (parsed instanceof JsonObject o) {
                same(o);
                checked++;
            } else if (parsed instanceof JsonArray a) {
                assertEquals(a.toBuffer(), JsonBytes.encode(a), f::toString);
                checked++;
            }
        }
        assertTrue(checked >= 30, "only " + checked + " fixture files checked");
    }

    @Test
    @DisplayName(
            "strings to escape or beyond ASCII, numbers of every kind, bytes, instants, raw maps and lists, empties")
    void everyKindOfValue() {
        Map<Object, Object> intKeys = new LinkedHashMap<>();
        intKeys.put(1, "one");
        intKeys.put(2, List.of(true, false));
        same(new JsonObject()
                .put("plain", "uusdc")
                .put("empty", "")
                .put("quote", "a\"b")
                .put("backslash", "C:\\dir")
                .put("slash", "a/b")
                .put("newline", "line\nnext\r\ttab\b\f")
                .put("control", "\u0000\u0001\u001f")
                .put("del", "\u007f")
                .put("latin", "caf\u00e9")
                .put("cjk", "\u4e2d\u6587")
                .put("emoji", "\ud83d\ude80 launch")
                .put("nbsp", "a\u00a0b")
                .put("separators", "\u2028\u2029")
                .put("null", (Object) null)
                .put("yes", true)
                .put("no", false)
                .put("int", 42)
                .put("negative", -7)
                .put("long", Long.MIN_VALUE)
                .put("short", (short) 12)
                .put("byte", (byte) -3)
                .put("double", 0.1)
                .put("tiny", 1e-9)
                .put("float", 2.5f)
                .put("big", new BigInteger("123456789012345678901234567890"))
                .put("decimal", new BigDecimal("1.2300"))
                .put("bytes", new byte[] {1, 2, 3, (byte) 0xff})
                .put("instant", Instant.parse("2026-11-27T01:02:03.456Z"))
                .put("buffer", Buffer.buffer("raw"))
                .put(
                        "nested",
                        new JsonObject()
                                .put(
                                        "a",
                                        new JsonArray()
                                                .add(1)
                                                .add("two")
                                                .addNull()
                                                .add(new JsonObject())))
                .put("emptyArray", new JsonArray())
                .put("emptyObject", new JsonObject())
                .put("rawMap", new LinkedHashMap<>(Map.of("k", "v")))
                .put("rawList", new ArrayList<>(List.of(1, "x", Map.of("n", 1))))
                .put("intKeys", intKeys)
                .put("key \"quoted\"\n", "v")
                .put("ключ", "значение"));
        JsonArray top = new JsonArray()
                .add("a")
                .add(new JsonObject().put("b", 1))
                .add(3.5)
                .addNull();
        assertEquals(top.toBuffer(), JsonBytes.encode(top));
    }

    @Test
    @DisplayName("2,000 random trees (seeded): nesting, mixed values, random printable and unprintable strings")
    void randomTrees() {
        Random r = new Random(20261127);
        for (int i = 0; i < 2_000; i++) same(randomObject(r, 0));
    }

    @Test
    @DisplayName("a lone surrogate fails as Vert.x's encoding fails")
    void loneSurrogate() {
        JsonObject o = new JsonObject().put("bad", "x\ud800y");
        boolean vertxFails;
        try {
            o.toBuffer();
            vertxFails = false;
        } catch (EncodeException e) {
            vertxFails = true;
        }
        if (vertxFails) {
            assertThrows(EncodeException.class, () -> JsonBytes.encode(o));
        } else {
            same(o);
        }
        same(new JsonObject().put("after", "a failed encoding leaves the writer clean"));
    }

    @Test
    @DisplayName("a large answer is written whole and its buffer is not kept")
    void largeAnswerNotKept() {
        JsonArray rows = new JsonArray();
        for (int i = 0; i < 20_000; i++)
            rows.add(new JsonObject().put("sequence", i).put("hash", "AB".repeat(32)));
        JsonObject page = new JsonObject().put("txs", rows);
        same(page);
        assertTrue(page.toBuffer().length() > JsonBytes.KEPT_BYTES);
        assertTrue(JsonBytes.keptBytes() <= JsonBytes.KEPT_BYTES, "kept " + JsonBytes.keptBytes() + " bytes");
    }

    @Test
    @DisplayName(
            "a frozen object writes Vert.x's bytes, alone and inside trees, equals its plain twin, and refuses every change")
    void frozenObject() {
        JsonObject plain = new JsonObject()
                .put("denom", "uusdc")
                .put("symbol", "USDC")
                .put("decimals", 6)
                .put("is_evm", false)
                .putNull("logo_uri")
                .put("price", new BigDecimal("1.0001"))
                .put("note", "caf\u00e9 \"quoted\"");
        JsonObject frozen = JsonBytes.frozen(plain);
        same(frozen);
        JsonObject tree = new JsonObject()
                .put("origin_asset", frozen)
                .put("fees", new JsonArray().add(frozen).add(frozen))
                .put("after", "x");
        same(tree);
        assertEquals(plain.toBuffer(), frozen.toBuffer());
        assertEquals(plain, frozen);
        assertEquals(frozen, plain);
        assertEquals(plain.hashCode(), frozen.hashCode());
        JsonObject treeCopy = tree.copy();
        assertEquals(
                new JsonObject()
                        .put("origin_asset", plain)
                        .put("fees", new JsonArray().add(plain).add(plain))
                        .put("after", "x"),
                treeCopy);
        treeCopy.getJsonObject("origin_asset").put("denom", "changed in the copy only");
        assertEquals("uusdc", frozen.getString("denom"));
        List<Runnable> changes = List.of(
                () -> frozen.put("denom", "x"),
                () -> frozen.remove("denom"),
                frozen::clear,
                () -> frozen.mergeIn(new JsonObject().put("a", 1)),
                () -> frozen.getMap().putIfAbsent("a", 1),
                () -> frozen.getMap().entrySet().iterator().next().setValue("x"),
                () -> frozen.getMap().keySet().remove("denom"),
                () -> frozen.getMap().values().clear(),
                () -> {
                    var it = frozen.iterator();
                    it.next();
                    it.remove();
                });
        for (int i = 0; i < changes.size(); i++)
            assertThrows(UnsupportedOperationException.class, changes.get(i)::run, "change " + i);
        assertEquals(plain, frozen, "unchanged after the refused changes");
        JsonObject copy = frozen.copy().put("hidden", true);
        assertEquals("USDC", copy.getString("symbol"));
        assertEquals(plain.size() + 1, copy.size());
        same(copy);
        assertThrows(
                IllegalArgumentException.class,
                () -> JsonBytes.frozen(new JsonObject().put("nested", new JsonObject())));
        assertThrows(
                IllegalArgumentException.class, () -> JsonBytes.frozen(new JsonObject().put("list", new JsonArray())));
    }

    private static JsonObject randomObject(Random r, int depth) {
        JsonObject o = new JsonObject();
        int n = r.nextInt(6);
        for (int i = 0; i < n; i++) o.put(randomString(r), randomValue(r, depth + 1));
        return o;
    }

    private static Object randomValue(Random r, int depth) {
        int kind = r.nextInt(depth >= 4 ? 7 : 9);
        return switch (kind) {
            case 0 -> null;
            case 1 -> r.nextBoolean();
            case 2 -> r.nextInt();
            case 3 -> r.nextLong();
            case 4 -> r.nextDouble() * Math.pow(10, r.nextInt(20) - 10);
            case 5, 6 -> randomString(r);
            case 7 -> randomObject(r, depth);
            default -> {
                JsonArray a = new JsonArray();
                int n = r.nextInt(5);
                for (int i = 0; i < n; i++) a.add(randomValue(r, depth + 1));
                yield a;
            }
        };
    }

    /** Mostly printable ASCII, sometimes a quote, a backslash, a control character or a non-ASCII code point. */
    private static String randomString(Random r) {
        StringBuilder b = new StringBuilder();
        int n = r.nextInt(12);
        for (int i = 0; i < n; i++) {
            int pick = r.nextInt(40);
            if (pick == 0) b.append('"');
            else if (pick == 1) b.append('\\');
            else if (pick == 2) b.append((char) r.nextInt(0x20));
            else if (pick == 3) b.appendCodePoint(0x7F + r.nextInt(0xD800 - 0x7F));
            else if (pick == 4) b.appendCodePoint(0x1F300 + r.nextInt(0x100));
            else b.append((char) (0x20 + r.nextInt(0x5F)));
        }
        return b.toString();
    }
}
