package dev.weft.route;

import static dev.weft.route.ExpectedJson.assertExact;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.weft.bus.BusError;
import dev.weft.chain.AccountAddress;
import dev.weft.chain.Hex;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** POST /op-hook: the MsgCall to sign for an OP deposit that arrives as the wrapped ERC-20, and the routes that have none. */
class OpHookTest {
    private static final String RECIPIENT = "init17w0adeg64ky0daxwd2ugyuneellmjgnxdtmpqz";
    private final RouteService s = RouteFixtures.service();

    private static JsonObject request(String destAddress, String destChain, String destDenom) {
        return new JsonObject()
                .put("source_address", RouteFixtures.INIT_ADDR)
                .put("source_asset_chain_id", "weft-l1-1")
                .put("source_asset_denom", "uinit")
                .put("dest_address", destAddress)
                .put("dest_asset_chain_id", destChain)
                .put("dest_asset_denom", destDenom);
    }

    @Test
    @DisplayName("the hook is one minievm MsgCall from the recipient to the wrapper: wrapAll(recipient)")
    void hook() {
        AccountAddress recipient = AccountAddress.parse(RECIPIENT, "init");
        String input = "0x70c8309e" + "0".repeat(24) + Hex.lower(recipient.bytes());
        JsonObject msg = new JsonObject()
                .put("sender", RECIPIENT)
                .put("contract_addr", RouteFixtures.WINIT_CONTRACT)
                .put("input", input)
                .put("value", "0")
                .put("access_list", new JsonArray());
        JsonObject expected = new JsonObject()
                .put("chain_id", "weft-devnet-1")
                .put(
                        "hook",
                        new JsonArray()
                                .add(new JsonObject()
                                        .put("msg_type_url", "/minievm.evm.v1.MsgCall")
                                        .put("msg", msg.encode())));
        assertExact(expected, s.opHook(request(RECIPIENT, "weft-devnet-1", RouteFixtures.WINIT_DEVNET)));
        // the same account given as 0x on the minievm rollup
        assertExact(expected, s.opHook(request(recipient.hex(), "weft-devnet-1", RouteFixtures.WINIT_DEVNET)));
    }

    @Test
    @DisplayName("400 when the route has no OP hook, 400 for a bad address, 404 for an unknown asset")
    void errors() {
        BusError none = assertThrows(
                BusError.class, () -> s.opHook(request(RECIPIENT, "weft-devnet-1", RouteFixtures.INIT_DEVNET)));
        assertEquals(400, none.httpStatus());
        assertEquals(
                "route does not support OP hooks: the route from weft-l1-1 uinit to weft-devnet-1 "
                        + RouteFixtures.INIT_DEVNET + " has no OPinit transfer that converts to an ERC-20 on arrival",
                none.getMessage());
        BusError bad = assertThrows(
                BusError.class, () -> s.opHook(request("cosmos1xyz", "weft-devnet-1", RouteFixtures.WINIT_DEVNET)));
        assertEquals(
                "dest_address \"cosmos1xyz\" is not a valid address for weft-devnet-1 (expected bech32 with prefix \"init\" or a 0x address of 20 bytes)",
                bad.getMessage());
        BusError missing = assertThrows(BusError.class, () -> s.opHook(new JsonObject()));
        assertEquals("source_address is required", missing.getMessage());
        BusError unknown = assertThrows(BusError.class, () -> s.opHook(request(RECIPIENT, "weft-devnet-1", "ufoo")));
        assertEquals(404, unknown.httpStatus());
    }
}
