package dev.weft.route;

import dev.weft.config.RouteConfig;
import io.vertx.core.json.JsonObject;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

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
  public static final String INIT_DEVNET_ON_L1 = "ibc/82EB1C694C571F954E68BFD68CFCFCD6123B0EBB69AAA8BAB7A082939B45E802";
  public static final String WINIT_DEVNET = "evm/d785Ec514eA01DCc48176Ce6E7944D9893d18A01";
  public static final String WINIT_CONTRACT = "0xd785Ec514eA01DCc48176Ce6E7944D9893d18A01";
  public static final String USDC_LZ_DEVNET = "evm/5e7709f66122317f741d68F529dF2121175C6FA2";
  public static final String USDC_EXT = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
  public static final String OFT_ADAPTER_EXT = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";
  public static final String POOL_DEVNET_INIT_USDC = "move/cdad0d24af1929f619d1dae248df00ac891c7be48818061527e1e0b1e2439ed6";

  // addresses (a 20-byte account shown in each chain's form)
  public static final String HEX = "0x1b1a3f4c5e6d7a8b9c0d1e2f3a4b5c6d7e8f9a0b";
  public static final String INIT_ADDR = dev.weft.chain.AccountAddress.parse(HEX, "init").bech32("init");
  public static final String NOBLE_ADDR = dev.weft.chain.AccountAddress.parse(HEX, "noble").bech32("noble");
  public static final String HEX_CHECKSUM = dev.weft.chain.AccountAddress.parse(HEX, "").checksumHex();

  private static RouteService service;

  private RouteFixtures() {}

  /** Both shipped registries, default configuration, clock fixed at {@link #NOW} (loaded once per test JVM). */
  public static synchronized RouteService service() {
    if (service == null) {
      service = RouteService.load(RouteConfig.defaults(RouteConfig.DEFAULT_REGISTRIES), Clock.fixed(NOW, ZoneOffset.UTC));
    }
    return service;
  }

  /** A copy of conf/registry/devnet.json in a new temporary directory (tests that edit and reload it). */
  public static java.nio.file.Path devnetCopy() throws java.io.IOException {
    java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("weft-registry");
    return java.nio.file.Files.copy(java.nio.file.Path.of("conf/registry/devnet.json"), dir.resolve("devnet.json"));
  }

  public static JsonObject request(String amount, String sourceChain, String sourceDenom, String destChain, String destDenom) {
    return new JsonObject().put("amount_in", amount).put("source_asset_chain_id", sourceChain).put("source_asset_denom", sourceDenom)
        .put("dest_asset_chain_id", destChain).put("dest_asset_denom", destDenom);
  }
}
