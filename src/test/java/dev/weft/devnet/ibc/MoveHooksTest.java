package dev.weft.devnet.ibc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.chain.Bech32;
import dev.weft.chain.Hex;
import dev.weft.devnet.exec.IbcAddresses;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Move ibc-hooks memos, receivers, ACL and the intermediate account, as initia's move-hooks read them. */
class MoveHooksTest {
    static final String CALL = "{\"move\":{\"message\":{\"module_address\":\"0x5c1f\",\"module_name\":\"entry_point\","
            + "\"function_name\":\"swap_and_action\",\"type_args\":[],\"args\":[\"AA==\"]}}}";

    @Test
    @DisplayName(
            "a memo with a move key is for the hooks; without one, or without a message, it is a plain transfer; malformed ones fail")
    void parse() {
        MoveHooks.Call c = MoveHooks.parse(CALL);
        assertEquals("0x5c1f", c.moduleAddress());
        assertEquals("0x5c1f::entry_point::swap_and_action", c.functionIdentifier());
        assertEquals("AA==", c.message().getJsonArray("args").getString(0));
        assertNull(MoveHooks.parse(""));
        assertNull(MoveHooks.parse("not json"));
        assertNull(MoveHooks.parse("{\"forward\":{}}"));
        assertNull(MoveHooks.parse(
                "{\"move\":{\"async_callback\":{\"id\":1,\"module_address\":\"0x1\",\"module_name\":\"m\"}}}"));
        assertThrows(IllegalArgumentException.class, () -> MoveHooks.parse("{\"move\":\"x\"}"));
        assertThrows(
                IllegalArgumentException.class,
                () -> MoveHooks.parse("{\"move\":{\"message\":{},\"message_json\":{}}}"));
    }

    @Test
    @DisplayName(
            "receiver: the function identifier or the bech32 of its SHA-256; ACL: only allowed deployers, any address form")
    void receiverAndAcl() {
        MoveHooks.Call c = MoveHooks.parse(CALL);
        assertTrue(MoveHooks.receiverMatches(c, "0x5c1f::entry_point::swap_and_action", "init"));
        // sha256("0x5c1f::entry_point::swap_and_action"), computed outside Java
        String hashed =
                Bech32.encode("init", Hex.decode("6dac2278cea4920104e5973df5bb2649645966e0269a7edf5f5d943b970ec320"));
        assertTrue(MoveHooks.receiverMatches(c, hashed, "init"));
        assertFalse(MoveHooks.receiverMatches(c, "init1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqnrql8a", "init"));
        MoveHooks hooks = new MoveHooks(Set.of("0x5c1f"), null, "/initia.move.v1.MsgExecute");
        assertTrue(hooks.allowed("0x" + "0".repeat(60) + "5C1F"));
        assertFalse(hooks.allowed("0x1"));
        assertFalse(hooks.allowed("nonsense"));
    }

    @Test
    @DisplayName(
            "intermediate account: SHA-256(SHA-256(\"ibc-move-hook-intermediary\") ‖ \"channel/sender\"), all 32 bytes")
    void intermediary() {
        // computed outside Java: sha256(sha256(b"ibc-move-hook-intermediary") + b"channel-0/init1sender")
        assertEquals(
                Bech32.encode("init", Hex.decode("eb0b6452468ae2909e59aa4b278ac6b04d6d1e5e0ee13478b0ac82be88511da1")),
                IbcAddresses.moveHookIntermediary("channel-0", "init1sender", "init"));
    }
}
