package dev.weft.route;

import dev.weft.config.RouteConfig;
import dev.weft.route.live.MarketState;
import dev.weft.route.live.OraclePrice;
import dev.weft.route.live.VenueState;
import dev.weft.route.registry.SwapVenue;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The shipped registries (mainnet and devnet) behind one route service with a fixed clock, and their denoms. */
public final class RouteFixtures {
    /** 2026-01-01T00:00:00Z: MsgTransfer timeouts are this plus route.ibc_timeout (5 min). */
    public static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    public static final long TIMEOUT_NANOS = (NOW.getEpochSecond() + 300) * 1_000_000_000L;

    // mainnet (values of the Initia registry)
    public static final String USDC_INITIA = "ibc/6490A7EAB61059BFC1CDDEB05917DD70BDF3A611654162A1A47DB930D40D8AF4";
    public static final String USDC_ECHELON = "ibc/AA4E7DF065DC4D4B29B8662A919295F525B19251FB2618C41C0DED3BD1128FEE";
    public static final String INIT_ECHELON = "l2/23c8396041db74441f4268d0c7e0533177dc3e028a47a8e584318f2d0c46fbe9";
    public static final String TIA_INITIA = "ibc/DA9AC2708B4DAA46D24E73241373CDCC850BC6446E8E0906A4062152B649DDD3";
    public static final String POOL_INIT_USDC = "move/524f87426c35d874d6c466eb5d8b7c93361e60a823dc29d6102d09fe910545b6";

    // devnet (conf/registry/devnet.json)
    public static final String INIT_DEVNET = "l2/771d639f30fbe45e3fbca954ffbe2fcc26f915f5513c67a4a2d0bc1d635bdefd";
    public static final String INIT_DEVNET_ERC20 = "0x500702E28B0e7ca814CBe4378084d5725d23608F";
    public static final String USDC_DEVNET = "l2/f75b558309f2ad137631cd2f5d20317b6b04cec7928441d2849ffb1781195487";
    public static final String USDC_DEVNET_ERC20 = "0x477b36f5C9173B0Aae1d9d77a0E51E65e143E16e";
    public static final String INIT_MOVE = "l2/2588fd87a8e081f6a557f43ff14f05dddf5e34cb27afcefd6eaf81f1daea30d0";
    public static final String INIT_IBC_ROLLUP = "ibc/37A3FB4FED4CA04ED6D9E5DA36C6D27248645F0E22F585576A1488B8A89C5A50";
    public static final String INIT_DEVNET_ON_L1 =
            "ibc/82EB1C694C571F954E68BFD68CFCFCD6123B0EBB69AAA8BAB7A082939B45E802";
    public static final String WINIT_DEVNET = "evm/d785Ec514eA01DCc48176Ce6E7944D9893d18A01";
    public static final String WINIT_CONTRACT = "0xd785Ec514eA01DCc48176Ce6E7944D9893d18A01";
    public static final String USDC_LZ_DEVNET = "evm/5e7709f66122317f741d68F529dF2121175C6FA2";
    public static final String USDC_EXT = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
    public static final String OFT_ADAPTER_EXT = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";
    public static final String POOL_DEVNET_INIT_USDC =
            "move/cdad0d24af1929f619d1dae248df00ac891c7be48818061527e1e0b1e2439ed6";
    public static final String POOL_DEVNET_STABLE =
            "move/4cd3e1dfbfef2d8d40b1a93d26f54a50006def0b25860b37483dd4c3eeeca1e3";

    // addresses (a 20-byte account shown in each chain's form)
    public static final String HEX = "0x1b1a3f4c5e6d7a8b9c0d1e2f3a4b5c6d7e8f9a0b";
    public static final String INIT_ADDR =
            dev.weft.chain.AccountAddress.parse(HEX, "init").bech32("init");
    public static final String NOBLE_ADDR =
            dev.weft.chain.AccountAddress.parse(HEX, "noble").bech32("noble");
    public static final String HEX_CHECKSUM =
            dev.weft.chain.AccountAddress.parse(HEX, "").checksumHex();

    private static RouteService service;

    private RouteFixtures() {}

    /**
     * Both shipped registries, default configuration, clock fixed at {@link #NOW}, and the market state of
     * {@link #market()} as if just read (loaded once per test JVM).
     */
    public static synchronized RouteService service() {
        if (service == null) {
            RouteConfig config = RouteConfig.defaults(RouteConfig.DEFAULT_REGISTRIES);
            service = RouteService.withMarket(
                    dev.weft.route.registry.RegistryLoader.load(config.registries(), config.finalizationPeriods()),
                    config,
                    Clock.fixed(NOW, ZoneOffset.UTC),
                    market());
        }
        return service;
    }

    /**
     * A market state read at {@link #NOW}: InitiaDEX on interwoven-1 with three 50/50 pairs of INIT (USDC, TIA, ETH) and a
     * USDC/USDe stableswap pool (height 4000000), InitiaDEX on weft-l1-1 as the devnet's genesis has INIT/USDC 50/50 and
     * the INIT/ibc-INIT stableswap pool (height 100), and oracle prices INIT 0.50, USDC 1.00, TIA 2.00, ETH 3000.
     */
    public static MarketState market() {
        List<SwapVenue.Pool> mainnet = List.of(
                SwapVenue.Pool.weighted(
                        POOL_INIT_USDC,
                        "uinit",
                        USDC_INITIA,
                        new BigInteger("10000000000000"),
                        new BigInteger("5000000000000"),
                        new BigDecimal("0.003")),
                SwapVenue.Pool.weighted(
                        "move/766d29ea3cd343c3eb9899382079b4dcc4de4471e1bbf164fd43d375050ea24e",
                        "uinit",
                        TIA_INITIA,
                        new BigInteger("2000000000000"),
                        new BigInteger("500000000000"),
                        new BigDecimal("0.003")),
                SwapVenue.Pool.weighted(
                        "move/464d70224cec61b0f536114bdd39edb81968b312810807821f7ce2edff874be1",
                        "uinit",
                        "move/edfcddacac79ab86737a1e9e65805066d8be286a37cb94f4884b892b0e39f954",
                        new BigInteger("4000000000000"),
                        new BigInteger("666666666"),
                        new BigDecimal("0.003")),
                SwapVenue.Pool.stable(
                        "move/9520650a69845faad71050961cf5077a7e0e6d94e5f16961b96bcfd3272be6ca",
                        USDC_INITIA,
                        "move/495824d57a4f31ca1c05af6c3fccdcb5c1681749ae49a0715797e1168eef3294",
                        new BigInteger("2000000000000"),
                        new BigInteger("2000000000000"),
                        new BigDecimal("0.0005"),
                        100));
        List<SwapVenue.Pool> devnet = List.of(
                SwapVenue.Pool.weighted(
                        POOL_DEVNET_INIT_USDC,
                        "uinit",
                        "uusdc",
                        new BigInteger("1000000000000"),
                        new BigInteger("500000000000"),
                        new BigDecimal("0.003")),
                SwapVenue.Pool.stable(
                        POOL_DEVNET_STABLE,
                        "uinit",
                        INIT_DEVNET_ON_L1,
                        new BigInteger("200000000000"),
                        new BigInteger("200000000000"),
                        new BigDecimal("0.001"),
                        100));
        Map<String, OraclePrice> prices = new LinkedHashMap<>();
        for (String[] p : new String[][] {{"INIT", "0.50"}, {"USDC", "1.00"}, {"TIA", "2.00"}, {"ETH", "3000.00"}}) {
            prices.put(p[0], new OraclePrice(p[0], new BigDecimal(p[1]), 4_000_000, NOW));
        }
        return MarketState.EMPTY
                .withVenue(new VenueState("interwoven-1", "initia-dex", mainnet, 4_000_000, NOW.getEpochSecond(), NOW))
                .withVenue(new VenueState("weft-l1-1", "initia-dex", devnet, 100, NOW.getEpochSecond(), NOW))
                .withPrices(prices);
    }

    /**
     * A copy of conf/registry/devnet.json in a new temporary directory (tests that edit and reload it), its InitiaDEX
     * venue with the fixed pools and USD prices of src/test/resources/registry/fixed-market.json instead of the chain's.
     */
    public static java.nio.file.Path devnetCopy() throws java.io.IOException {
        return fixedCopy("devnet", java.nio.file.Files.createTempDirectory("weft-registry"));
    }

    /** A copy of conf/registry/mainnet.json in {@code dir} with the fixed pools and USD prices (see {@link #devnetCopy}). */
    public static java.nio.file.Path mainnetCopy(java.nio.file.Path dir) throws java.io.IOException {
        return fixedCopy("mainnet", dir);
    }

    private static java.nio.file.Path fixedCopy(String name, java.nio.file.Path dir) throws java.io.IOException {
        JsonObject registry = new JsonObject(
                java.nio.file.Files.readString(java.nio.file.Path.of("conf/registry/" + name + ".json")));
        JsonObject fixed = new JsonObject(java.nio.file.Files.readString(
                        java.nio.file.Path.of("src/test/resources/registry/fixed-market.json")))
                .getJsonObject(name);
        registry.remove("price_oracles");
        registry.put("usd_prices", fixed.getJsonObject("usd_prices"))
                .put("swap_venues", fixed.getJsonArray("swap_venues"));
        java.nio.file.Path file = dir.resolve(name + ".json");
        java.nio.file.Files.writeString(file, registry.encodePrettily());
        return file;
    }

    public static JsonObject request(
            String amount, String sourceChain, String sourceDenom, String destChain, String destDenom) {
        return new JsonObject()
                .put("amount_in", amount)
                .put("source_asset_chain_id", sourceChain)
                .put("source_asset_denom", sourceDenom)
                .put("dest_asset_chain_id", destChain)
                .put("dest_asset_denom", destDenom);
    }
}
