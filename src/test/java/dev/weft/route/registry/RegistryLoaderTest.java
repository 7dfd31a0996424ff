package dev.weft.route.registry;

import static dev.weft.route.RouteFixtures.INIT_ECHELON;
import static dev.weft.route.RouteFixtures.USDC_ECHELON;
import static dev.weft.route.RouteFixtures.USDC_INITIA;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.chain.Hex;
import dev.weft.route.RouteFixtures;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Loading the shipped registries, denom derivations against the Initia registry's values, and rejected inconsistencies. */
class RegistryLoaderTest {
    private final Registry r = RouteFixtures.service().registry();

    @Test
    @DisplayName(
            "l2/ denoms: sha3-256(be64(bridge id) ‖ L1 denom) equals the registry's (echelon INIT via bridge 16, inertia USDC via 32)")
    void opDenoms() {
        assertEquals(INIT_ECHELON, Denoms.l2(16, "uinit"));
        assertEquals("l2/93c226659c42299f98bdca46cf151a604a70be2e6391a61b67ae2311d556a46a", Denoms.l2(32, USDC_INITIA));
        Asset echelonInit = r.asset("echelon-1", INIT_ECHELON);
        assertFalse(echelonInit.derived(), "listed by the registry");
        assertEquals("interwoven-1", echelonInit.originChainId());
        assertEquals("uinit", echelonInit.originDenom());
        assertEquals("", echelonInit.trace());
        assertEquals("16", Long.toString(r.chain("echelon-1").opBridge().bridgeId()));
        // every rollup fee token that is an l2/ denom is its bridge's INIT
        for (String chain : List.of("rena-nuwa-1", "intergaze-1", "inertia-2", "echelon-1", "civitia-1")) {
            Chain c = r.chain(chain);
            assertEquals(
                    Denoms.l2(c.opBridge().bridgeId(), "uinit"),
                    c.feeAssets().get(0).denom(),
                    chain);
        }
    }

    @Test
    @DisplayName(
            "ibc/ denoms: upper-hex sha256 of the trace equals the registry's (USDC on Initia and on echelon, two hops)")
    void ibcDenoms() {
        assertEquals(USDC_INITIA, Denoms.ibc("transfer/channel-3/uusdc"));
        assertEquals(USDC_ECHELON, Denoms.ibc("transfer/channel-0/transfer/channel-3/uusdc"));
        Asset usdc = r.asset("echelon-1", USDC_ECHELON);
        assertEquals("transfer/channel-0/transfer/channel-3/uusdc", usdc.ibcPath());
        assertEquals("transfer/channel-0/transfer/channel-3", usdc.trace());
        assertEquals("noble-1", usdc.originChainId());
        assertEquals("uusdc", usdc.originDenom());
    }

    @Test
    @DisplayName(
            "an ibc/ denom the registry lists without a trace is explained by a channel: moo-1's fee token is INIT over channel-0")
    void untracedIbcDenom() {
        Asset mooInit = r.asset("moo-1", RouteFixtures.INIT_IBC_ROLLUP);
        assertNotNull(mooInit);
        assertFalse(mooInit.derived());
        assertEquals("transfer/channel-0/uinit", mooInit.ibcPath());
        assertEquals("interwoven-1", mooInit.originChainId());
        assertEquals(mooInit.denom(), r.chain("moo-1").feeAssets().get(0).denom());
    }

    @Test
    @DisplayName("every listed ibc/ asset's denom is the hash of its path; every l2/ asset's is its bridge's hash")
    void everyListedDenomRederives() {
        int ibc = 0;
        int l2 = 0;
        for (Asset a : r.assets()) {
            if (a.denom().startsWith("ibc/")) {
                assertEquals(a.denom(), Denoms.ibc(a.ibcPath()), a.key());
                ibc++;
            }
            if (a.denom().startsWith("l2/")) {
                OpBridge b = r.chain(a.chainId()).opBridge();
                assertTrue(
                        b.opDenoms().stream()
                                .anyMatch(d -> Denoms.l2(b.bridgeId(), d).equals(a.denom())),
                        a.key());
                l2++;
            }
        }
        assertEquals(253, ibc);
        assertEquals(20, l2);
    }

    @Test
    @DisplayName("Move metadata of uinit is the well-known INIT metadata object 0x8e4733bd…91d9")
    void moveMetadata() {
        assertEquals(
                "8e4733bdabcf7d4afc3d14f0dd46c9bf52fb0fce9e4b996c939e195b8bc891d9",
                Hex.lower(Denoms.moveMetadata("uinit")));
        assertEquals(
                "524f87426c35d874d6c466eb5d8b7c93361e60a823dc29d6102d09fe910545b6",
                Hex.lower(Denoms.moveMetadata(RouteFixtures.POOL_INIT_USDC)));
    }

    @Test
    @DisplayName(
            "mainnet: 13 registry chains + 4 external, 14 channel pairs (Initia registry's channel-71 to Osmosis), 7-day bridges")
    void mainnetShape() {
        long mainnet = r.chains().values().stream().filter(c -> !c.testnet()).count();
        assertEquals(17, mainnet);
        List<IbcChannel> mainnetChannels = r.channels().stream()
                .filter(c -> !r.chain(c.chainA()).testnet())
                .toList();
        assertEquals(14, mainnetChannels.size());
        IbcChannel osmosis = r.channel("interwoven-1", "channel-71");
        assertEquals("osmosis-1", osmosis.counterpartyChain("interwoven-1"));
        assertEquals("channel-102129", osmosis.counterpartyChannel("interwoven-1"));
        assertNull(r.channel("interwoven-1", "channel-68"));
        assertEquals("channel-129", r.channel("interwoven-1", "channel-3").counterpartyChannel("interwoven-1"));
        assertNull(r.channel("rena-nuwa-1", "channel-0"), "one-sided in the registry: not routed");
        assertEquals(Duration.ofDays(7), r.chain("echelon-1").opBridge().finalizationPeriod());
        assertEquals(
                "https://opinit-api-zaar-mainnet-1.anvil.asia-southeast.initia.xyz",
                r.chain("zaar-mainnet-1").opBridge().executorUri());
        assertEquals("1335097526422335", r.chain("zaar-mainnet-1").evmChainId());
        assertEquals(
                "0.04", r.chain("interwoven-1").feeAssets().get(0).gasPrice().high());
        assertEquals(
                "15000000000",
                r.chain("zaar-mainnet-1").feeAssets().get(0).gasPrice().average());
    }

    @Test
    @DisplayName("devnet: the contract of conf/registry/devnet.json (chains, channels, bridges, denoms, lane, wrapper)")
    void devnetShape() {
        assertEquals(
                List.of("weft-l1-1", "weft-devnet-1", "weft-move-1", "31337"),
                r.chains().values().stream()
                        .filter(Chain::testnet)
                        .map(Chain::chainId)
                        .toList());
        Chain l1 = r.chain("weft-l1-1");
        assertTrue(l1.l1() && l1.pfm() && l1.memo());
        assertEquals("move", l1.hooks());
        assertEquals(1, r.chain("weft-devnet-1").opBridge().bridgeId());
        assertEquals(2, r.chain("weft-move-1").opBridge().bridgeId());
        assertEquals(Duration.ofSeconds(60), r.chain("weft-devnet-1").opBridge().finalizationPeriod());
        assertEquals("1397", r.chain("weft-devnet-1").evmChainId());
        assertEquals("weft-devnet-1", r.channel("weft-l1-1", "channel-0").counterpartyChain("weft-l1-1"));
        assertEquals("weft-move-1", r.channel("weft-l1-1", "channel-1").counterpartyChain("weft-l1-1"));
        assertEquals(RouteFixtures.INIT_DEVNET, Denoms.l2(1, "uinit"));
        assertEquals(RouteFixtures.USDC_DEVNET, Denoms.l2(1, "uusdc"));
        assertEquals(RouteFixtures.INIT_MOVE, Denoms.l2(2, "uinit"));
        assertEquals(RouteFixtures.INIT_IBC_ROLLUP, Denoms.ibc("transfer/channel-0/uinit"));
        assertEquals(RouteFixtures.INIT_DEVNET_ON_L1, Denoms.ibc("transfer/channel-0/" + RouteFixtures.INIT_DEVNET));
        assertEquals(
                RouteFixtures.INIT_DEVNET,
                r.chain("weft-devnet-1").feeAssets().get(0).denom());
        // ERC-20 addresses: last 20 bytes of keccak256 of the documented seed
        assertEquals(RouteFixtures.INIT_DEVNET_ERC20, seeded("weft-devnet-1/erc20/" + RouteFixtures.INIT_DEVNET));
        assertEquals(RouteFixtures.USDC_DEVNET_ERC20, seeded("weft-devnet-1/erc20/" + RouteFixtures.USDC_DEVNET));
        assertEquals(RouteFixtures.WINIT_CONTRACT, seeded("weft-devnet-1/erc20-wrapper/INIT"));
        assertEquals("0x5e7709f66122317f741d68F529dF2121175C6FA2", seeded("weft-devnet-1/oft/USDC"));
        assertEquals(
                r.asset("weft-devnet-1", RouteFixtures.INIT_DEVNET),
                r.resolve("weft-devnet-1", RouteFixtures.INIT_DEVNET_ERC20.toLowerCase()));
        byte[] std = new byte[32];
        std[31] = 1;
        assertEquals(
                RouteFixtures.POOL_DEVNET_INIT_USDC,
                "move/" + Hex.lower(Denoms.namedObject(std, "weft-l1-1/initia-dex/INIT-USDC")));
        LayerZeroLane lane = r.lanes().get(0);
        assertEquals(
                List.of(
                        "31337",
                        "weft-devnet-1",
                        RouteFixtures.USDC_EXT,
                        RouteFixtures.USDC_LZ_DEVNET,
                        RouteFixtures.OFT_ADAPTER_EXT),
                List.of(
                        lane.fromChainId(),
                        lane.toChainId(),
                        lane.denomIn(),
                        lane.denomOut(),
                        lane.sourceOftContract()));
        assertEquals(40397, lane.destinationEndpointId());
        assertEquals("wrapAll(address)", r.wrappers().get(0).hookFunction());
    }

    private static String seeded(String seed) {
        byte[] h = dev.weft.chain.Hashes.keccak256(seed);
        return dev.weft.chain.AccountAddress.of(java.util.Arrays.copyOfRange(h, 12, 32))
                .checksumHex();
    }

    @Test
    @DisplayName(
            "a listed denom that its trace does not give is rejected, naming the file, the entry and the derived denom")
    void tamperedDenomRejected() throws IOException {
        JsonObject devnet = new JsonObject(Files.readString(Path.of("conf/registry/devnet.json")));
        JsonObject usdc = devnet.getJsonArray("assets").getJsonObject(6);
        assertEquals("ibc/8E27BA2D5493AF5636760E354E46004562C46AB7EC0CC4C1CA14E9E20E2545B5", usdc.getString("denom"));
        usdc.put("denom", "ibc/8E27BA2D5493AF5636760E354E46004562C46AB7EC0CC4C1CA14E9E20E2545B6");
        RegistryException e =
                assertThrows(RegistryException.class, () -> RegistryLoader.fromJson(Map.of("devnet.json", devnet)));
        assertEquals(
                "devnet.json.assets[6] (weft-devnet-1 ibc/8E27BA2D5493AF5636760E354E46004562C46AB7EC0CC4C1CA14E9E20E2545B6): "
                        + "denom does not match its ibc trace: sha256(transfer/channel-0/uusdc) gives ibc/8E27BA2D5493AF5636760E354E46004562C46AB7EC0CC4C1CA14E9E20E2545B5",
                e.getMessage());

        JsonObject op = new JsonObject(Files.readString(Path.of("conf/registry/devnet.json")));
        op.getJsonArray("assets")
                .getJsonObject(3)
                .getJsonArray("traces")
                .getJsonObject(0)
                .put("bridge_id", "2");
        e = assertThrows(RegistryException.class, () -> RegistryLoader.fromJson(Map.of("devnet.json", op)));
        assertTrue(
                e.getMessage().endsWith("op trace names bridge 2, which is not the OP bridge of weft-devnet-1"),
                e.getMessage());
    }

    @Test
    @DisplayName(
            "inconsistent registries are rejected: duplicate chain, channel to an unknown chain, untraceable ibc denom, bad price key, hook entry point without Move hooks or not an address")
    void inconsistenciesRejected() throws IOException {
        JsonObject devnet = new JsonObject(Files.readString(Path.of("conf/registry/devnet.json")));
        RegistryException dup = assertThrows(
                RegistryException.class,
                () -> RegistryLoader.fromJson(
                        new java.util.LinkedHashMap<>(Map.of("a.json", devnet, "b.json", devnet.copy()))));
        assertTrue(dup.getMessage().contains("is defined twice"), dup.getMessage());

        JsonObject channel = devnet.copy();
        channel.getJsonArray("ibc_channels").getJsonObject(0).put("chain_b", "nowhere-1");
        assertEquals(
                "devnet.json.ibc_channels[0]: chain nowhere-1 is not in the registry",
                assertThrows(RegistryException.class, () -> RegistryLoader.fromJson(Map.of("devnet.json", channel)))
                        .getMessage());

        JsonObject untraced = devnet.copy();
        untraced.getJsonArray("assets")
                .add(new JsonObject()
                        .put("chain_id", "weft-l1-1")
                        .put("denom", "ibc/" + "AB".repeat(32))
                        .put("symbol", "X")
                        .put("decimals", 6)
                        .put("traces", new JsonArray()));
        assertTrue(assertThrows(RegistryException.class, () -> RegistryLoader.fromJson(Map.of("devnet.json", untraced)))
                .getMessage()
                .endsWith(
                        "an ibc/ denom without an ibc trace must be one IBC hop of another asset over a channel of the registry, and none gives ibc/"
                                + "AB".repeat(32)));

        JsonObject price = devnet.copy();
        price.put("usd_prices", new JsonObject().put("weft-l1-1/ufoo", "1"));
        assertTrue(
                assertThrows(RegistryException.class, () -> RegistryLoader.fromJson(Map.of("devnet.json", price)))
                        .getMessage()
                        .endsWith(
                                "usd price for weft-l1-1/ufoo, which is not an asset of the registry (key: <chain_id>/<denom>)"));

        JsonObject noHooks = devnet.copy();
        noHooks.getJsonArray("chains")
                .getJsonObject(0)
                .getJsonObject("configuration")
                .putNull("hooks");
        assertTrue(assertThrows(RegistryException.class, () -> RegistryLoader.fromJson(Map.of("devnet.json", noHooks)))
                .getMessage()
                .endsWith("hook_entry_point needs Move ibc-hooks on weft-l1-1"));
        JsonObject badEntry = devnet.copy();
        badEntry.getJsonArray("swap_venues").getJsonObject(0).put("hook_entry_point", "entry");
        assertTrue(assertThrows(RegistryException.class, () -> RegistryLoader.fromJson(Map.of("devnet.json", badEntry)))
                .getMessage()
                .endsWith("hook_entry_point must be a Move address (0x and up to 64 hex digits)"));
    }

    @Test
    @DisplayName(
            "route.finalization_periods overrides a bridge's period; naming a chain that is not a rollup is an error")
    void finalizationOverride() {
        Registry custom = RegistryLoader.load(
                List.of("conf/registry/devnet.json"), Map.of("weft-devnet-1", Duration.ofSeconds(5)));
        assertEquals(
                Duration.ofSeconds(5), custom.chain("weft-devnet-1").opBridge().finalizationPeriod());
        assertEquals(
                Duration.ofSeconds(60), custom.chain("weft-move-1").opBridge().finalizationPeriod());
        assertThrows(
                RegistryException.class,
                () -> RegistryLoader.load(
                        List.of("conf/registry/devnet.json"), Map.of("weft-l1-1", Duration.ofSeconds(5))));
    }
}
