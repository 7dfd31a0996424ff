package dev.weft.devnet.exec;

import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * Move {@code MsgExecute} and minievm {@code MsgCall} of submitted txs: accepted and recorded, not run (no VM executes
 * on the devnet, so a swap moves no reserves); only the {@code message} event marks them.
 */
public final class VmModule implements MsgModule {
    private final List<String> types;

    public VmModule(List<String> types) {
        this.types = types;
    }

    @Override
    public List<String> types() {
        return types;
    }

    @Override
    public void check(MsgContext ctx, String typeUrl, JsonObject msg) {}

    @Override
    public byte[] execute(MsgContext ctx, String typeUrl, JsonObject msg, EventLog log) {
        return new byte[0];
    }

    @Override
    public long gas(String typeUrl) {
        return 150_000;
    }
}
