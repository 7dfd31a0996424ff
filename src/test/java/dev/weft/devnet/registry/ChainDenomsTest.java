package dev.weft.devnet.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.chain.Hex;
import dev.weft.route.registry.Chain;
import dev.weft.route.registry.Denoms;
import dev.weft.route.registry.Registry;
import dev.weft.route.registry.RegistryLoader;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The devnet derives denoms and reads the registry with code of its own, the router with its own: both are held here
 * against recorded real values (the Initia registry's mainnet assets: every IBC voucher and OPinit deposit denom with
 * its trace), and against each other on the devnet registry, so neither can drift along with the other.
 */
class ChainDenomsTest {
    private static final Path MAINNET_ASSETS =
            Path.of("src/test/resources/fixtures/initia-registry/mainnet-assets.json");

    @Test
    @DisplayName(
            "every mainnet IBC voucher and OPinit denom of the Initia registry, derived by the devnet and the router")
    void mainnetDenoms() throws Exception {
        int ibc = 0;
        int op = 0;
        for (Object chain : new JsonArray(Files.readString(MAINNET_ASSETS))) {
            for (Object o : ((JsonObject) chain).getJsonArray("assets")) {
                JsonObject asset = (JsonObject) o;
                String denom = asset.getString("base");
                for (Object t : asset.getJsonArray("traces", new JsonArray())) {
                    JsonObject trace = (JsonObject) t;
                    JsonObject here = trace.getJsonObject("chain");
                    if (trace.getString("type").equals("ibc") && denom.startsWith("ibc/")) {
                        String path = here.getString("path");
                        assertEquals(denom, ChainDenoms.ibcVoucher(path), "devnet: " + path);
                        assertEquals(denom, Denoms.ibc(path), "router: " + path);
                        assertEquals(denom, ChainDenoms.onChain(path));
                        ibc++;
                    } else if (trace.getString("type").equals("op")) {
                        long bridge = Long.parseLong(here.getString("bridge_id"));
                        String l1Denom = trace.getJsonObject("counterparty").getString("base_denom");
                        assertEquals(denom, ChainDenoms.opDeposit(bridge, l1Denom), "devnet: bridge " + bridge);
                        assertEquals(denom, Denoms.l2(bridge, l1Denom), "router: bridge " + bridge);
                        op++;
                    }
                }
            }
        }
        assertTrue(ibc >= 5 && op >= 10, "the fixture holds " + ibc + " IBC and " + op + " OP traces");
    }

    @Test
    @DisplayName("uinit's Move metadata object is Initia's published INIT metadata address, on both sides")
    void moveMetadata() {
        // the INIT fungible-asset metadata on the Initia L1 (e.g. the metadata_addr of its 0x1::fungible_asset events)
        String init = "8e4733bdabcf7d4afc3d14f0dd46c9bf52fb0fce9e4b996c939e195b8bc891d9";
        assertEquals(init, Hex.lower(ChainDenoms.moveMetadata("uinit")));
        assertEquals(init, Hex.lower(Denoms.moveMetadata("uinit")));
        assertEquals(
                "00".repeat(31) + "0a", Hex.lower(ChainDenoms.moveMetadata("move/a")), "move/<hex> is the address");
    }

    @Test
    @DisplayName("ICS-20 paths: a transfer back over the arrival channel unwinds a hop, any other adds one")
    void paths() {
        assertEquals(
                "uinit", ChainDenoms.afterTransfer("transfer/channel-0/uinit", "transfer", "channel-0", "channel-7"));
        assertEquals(
                "transfer/channel-7/transfer/channel-0/uinit",
                ChainDenoms.afterTransfer("transfer/channel-0/uinit", "transfer", "channel-3", "channel-7"));
        for (String p : List.of("uinit", "transfer/channel-0/uinit", "transfer/uinit", "l2/abc", "factory/x/y")) {
            assertEquals(Denoms.hasHops(p), ChainDenoms.startsWithHop(p), p);
            assertEquals(
                    Denoms.pathAfterTransfer(p, "transfer", "channel-0", "channel-1"),
                    ChainDenoms.afterTransfer(p, "transfer", "channel-0", "channel-1"),
                    p);
        }
    }

    @Test
    @DisplayName("the devnet's reading of the devnet registry agrees with the router's: chains, channels, every asset")
    void devnetRegistryAgrees() {
        DevnetRegistry devnet = DevnetRegistry.load("conf/registry/devnet.json");
        Registry router = RegistryLoader.load(List.of("conf/registry/devnet.json"), Map.of());
        assertEquals(
                router.assets().stream()
                        .map(a -> a.chainId() + " " + a.denom() + " " + a.ibcPath() + " " + a.tokenContract())
                        .toList(),
                devnet.assets().stream()
                        .map(a -> a.chainId() + " " + a.denom() + " " + a.ibcPath() + " "
                                + (a.tokenContract() == null ? null : a.tokenContract()))
                        .toList());
        assertEquals(
                router.channels().stream()
                        .map(c -> List.of(c.port(), c.chainA(), c.channelA(), c.chainB(), c.channelB()))
                        .toList(),
                devnet.channels().stream()
                        .map(c -> List.of(c.port(), c.chainA(), c.channelA(), c.chainB(), c.channelB()))
                        .toList());
        for (Chain c : router.chains().values()) {
            DevnetRegistry.Chain d = devnet.chain(c.chainId());
            assertEquals(c.l1(), d.l1(), c.chainId());
            assertEquals(c.hasEvm(), d.hasEvm(), c.chainId());
            assertEquals(c.isEvmChain(), d.isEvmChain(), c.chainId());
            assertEquals(c.pfm(), d.pfm(), c.chainId());
            assertEquals(c.hooks(), d.hooks(), c.chainId());
            assertEquals(c.vm(), d.vm(), c.chainId());
            assertEquals(c.bech32Prefix(), d.bech32Prefix(), c.chainId());
            assertEquals(c.feeAssets().isEmpty() ? null : c.feeAssets().get(0).denom(), d.feeDenom(), c.chainId());
            assertEquals(c.opBridge() == null, d.opBridge() == null, c.chainId());
            if (c.opBridge() != null) {
                assertEquals(c.opBridge().bridgeId(), d.opBridge().bridgeId());
                assertEquals(c.opBridge().opDenoms(), d.opBridge().opDenoms());
            }
        }
        assertEquals(router.lanes().size(), devnet.lanes().size());
        assertEquals(
                router.lanes().get(0).destinationEndpointId(),
                devnet.lanes().get(0).destinationEndpointId());
        assertEquals(
                router.lanes().get(0).sourceOftContract(), devnet.lanes().get(0).sourceOftContract());
    }

    @Test
    @DisplayName(
            "addresses the devnet's chains accept: bech32 with the prefix, 0x of 20 bytes only where there is an EVM")
    void addresses() {
        DevnetRegistry devnet = DevnetRegistry.load("conf/registry/devnet.json");
        String hex = "0x" + "11".repeat(20);
        String bech32 = dev.weft.chain.AccountAddress.parse(hex, "").bech32("init");
        assertTrue(devnet.chain("weft-devnet-1").acceptsAddress(hex));
        assertTrue(devnet.chain("weft-devnet-1").acceptsAddress(bech32));
        assertTrue(devnet.chain("weft-l1-1").acceptsAddress(bech32));
        assertEquals(false, devnet.chain("weft-l1-1").acceptsAddress(hex));
        assertEquals(false, devnet.chain("31337").acceptsAddress(bech32));
        assertTrue(devnet.chain("31337").acceptsAddress(hex));
        assertEquals(false, devnet.chain("weft-l1-1").acceptsAddress("cosmos1xyz"));
    }
}
