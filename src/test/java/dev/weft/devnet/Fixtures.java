package dev.weft.devnet;

import dev.weft.devnet.gen.Block;
import dev.weft.devnet.gen.DevnetChain;
import dev.weft.devnet.gen.Tx;
import dev.weft.devnet.gen.TxPlan;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The recorded real responses, and finding devnet txs of a given kind to hold against them. */
final class Fixtures {
    private static final Path ROOT = dev.weft.testsupport.FixtureChain.FIXTURES;

    private Fixtures() {}

    static String text(String relative) {
        try {
            return Files.readString(ROOT.resolve(relative));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonObject object(String relative) {
        return new JsonObject(text(relative));
    }

    static JsonArray array(String relative) {
        return new JsonArray(text(relative));
    }

    /** The first tx of that kind at heights [2, head] of the chain. */
    static DevnetChain.TxRef first(DevnetChain chain, TxPlan.Kind kind) {
        for (long h = 2; h <= chain.head(); h++) {
            Block b = chain.block(h);
            for (Tx tx : b.txs) if (tx.plan.kind == kind) return new DevnetChain.TxRef(b, tx);
        }
        throw new AssertionError("no " + kind + " tx in the first " + chain.head() + " blocks");
    }

    static long firstEmptyHeight(DevnetChain chain) {
        for (long h = 2; h <= chain.head(); h++) if (chain.txCount(h) == 0) return h;
        throw new AssertionError("no empty block");
    }
}
