package dev.weft.devnet.ibc;

import dev.weft.chain.Bech32;
import dev.weft.chain.Hashes;
import dev.weft.devnet.exec.MsgModule;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Move ibc-hooks on a receiving chain (initia-labs/initia {@code x/ibc-hooks/move-hooks}): an ICS-20 packet whose memo
 * is a JSON object with a {@code "move"} key is routed to the hooks; its {@code move.message} is a {@code MsgExecute}
 * ({@code module_address, module_name, function_name, type_args, args}) that runs on arrival with the sender's
 * intermediate account as signer, after the coins are credited to that account. The packet's receiver must be the
 * function identifier {@code addr::module::function} (or the bech32 of its SHA-256), and the module's deployer must be
 * allowed by the hooks' ACL (default: not allowed). Any failure is an error acknowledgement
 * {@code "ibc move hook error: …"}, and the receipt is reverted.
 */
public final class MoveHooks {
    private final Set<String> allowed = new HashSet<>();
    private final MsgModule vm;
    private final String executeType;

    /**
     * @param allowedModules deployer addresses the ACL allows
     * @param vm             the module executing {@code MsgExecute} ({@code check} then {@code execute})
     */
    public MoveHooks(Set<String> allowedModules, MsgModule vm, String executeType) {
        for (String a : allowedModules) allowed.add(normalize(a));
        this.vm = vm;
        this.executeType = executeType;
    }

    /** A hook call from a memo: the {@code MsgExecute} (without sender) and its function identifier. */
    record Call(JsonObject message, String moduleAddress, String functionIdentifier) {}

    /**
     * The call of a memo routed to the hooks; null when the memo is not (blank, not a JSON object, no {@code move} key)
     * or carries no message (a plain transfer). Throws IllegalArgumentException for a malformed one.
     */
    static Call parse(String memo) {
        if (memo == null || memo.isBlank()) return null;
        JsonObject o;
        try {
            o = new JsonObject(memo);
        } catch (RuntimeException e) {
            return null;
        }
        if (!o.containsKey("move")) return null;
        if (!(o.getValue("move") instanceof JsonObject hook))
            throw new IllegalArgumentException("invalid packet: move hook data is not an object");
        if (hook.getValue("message") != null && hook.getValue("message_json") != null) {
            throw new IllegalArgumentException("only one of message or message_json can be set");
        }
        if (hook.getValue("message_json") != null)
            throw new IllegalArgumentException("message_json is not run by the devnet");
        Object m = hook.getValue("message");
        if (m == null) return null;
        if (!(m instanceof JsonObject msg))
            throw new IllegalArgumentException("invalid packet: move message is not an object");
        String address = msg.getString("module_address", "");
        String fid = address + "::" + msg.getString("module_name", "") + "::" + msg.getString("function_name", "");
        return new Call(msg.copy(), address, fid);
    }

    boolean allowed(String moduleAddress) {
        try {
            return allowed.contains(normalize(moduleAddress));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The receiver the hooks accept for a call: its function identifier, or the bech32 of the identifier's SHA-256. */
    static boolean receiverMatches(Call call, String receiver, String prefix) {
        if (receiver.equals(call.functionIdentifier())) return true;
        byte[] hash = Hashes.sha256(call.functionIdentifier().getBytes(StandardCharsets.UTF_8));
        return receiver.equals(Bech32.encode(prefix, hash));
    }

    /** Throws {@code ExecError} when the call would fail (a Move abort), changing nothing. */
    void check(dev.weft.devnet.exec.MsgContext ctx, JsonObject msg) {
        vm.check(ctx, executeType, msg);
    }

    void execute(dev.weft.devnet.exec.MsgContext ctx, JsonObject msg, dev.weft.devnet.exec.EventLog log) {
        vm.execute(ctx, executeType, msg, log);
    }

    private static String normalize(String address) {
        String hex = address.startsWith("0x") || address.startsWith("0X") ? address.substring(2) : address;
        if (hex.isEmpty() || hex.length() > 64 || !hex.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            throw new IllegalArgumentException("not a Move address: " + address);
        }
        return "0".repeat(64 - hex.length()) + hex.toLowerCase(Locale.ROOT);
    }
}
