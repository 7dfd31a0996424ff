package dev.weft.track;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.chain.AccountAddress;
import dev.weft.devnet.world.World;
import dev.weft.route.RouteFixtures;
import dev.weft.testsupport.DevnetAccounts;
import dev.weft.testsupport.LayerZeroSource;
import dev.weft.testsupport.Toolsets;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The official Skip Go client ({@code @skip-go/client} 1.6.1, installed from {@code tools/npm/skip-client} into
 * {@code .tools/npm/skip-client}) drives Weft and the devnet from Node ({@code src/test/node/skip-client-e2e.mjs}):
 * {@code executeRoute()} for each route kind, followed through its status subscription to a final status with balances
 * read before and after (the source loses exactly the amount, the destination gains it, or at least something on a
 * swap, net of the fees the user's txs paid), and the seed flow (sign with cosmjs, fee from the chain's Simulate,
 * broadcast to the chain, {@code /v2/tx/track}, {@code /v2/tx/status}). The signer is the devnet's well-known test key,
 * funded at genesis. The LayerZero transfer (USDC from the Anvil chain 31337 to weft-devnet-1) signs with viem for the
 * same key's EVM account, funded on Anvil ({@link LayerZeroSource}), and is delivered by the devnet's LayerZero
 * simulator; its balances are the ERC-20's on Anvil and the OFT denom's on weft-devnet-1. A transfer to a receiver the
 * devnet's relayer refuses (an error acknowledgement) must reach the status {@code failed}, the amount refunded.
 */
class SkipClientE2ETest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final String L1 = "weft-l1-1", EVM = "weft-devnet-1", MOVE = "weft-move-1";

    static JsonObject flow(
            String name, String amount, String srcChain, String srcDenom, String dstChain, String dstDenom) {
        return new JsonObject()
                .put("name", name)
                .put("amount", amount)
                .put("source_chain", srcChain)
                .put("source_denom", srcDenom)
                .put("dest_chain", dstChain)
                .put("dest_denom", dstDenom);
    }

    /** The devnet delivers the lane's messages from the Anvil chain; the tracker and the wallet endpoints read Anvil. */
    static dev.weft.testsupport.TestConfig layerZero(dev.weft.testsupport.TestConfig config, LayerZeroSource lz) {
        return config.set("devnet.layer_zero.source_rpc", lz.url())
                .set("devnet.layer_zero.poll_interval", "100ms")
                .set("track.nodes", new JsonObject().put(LayerZeroSource.CHAIN, new JsonArray().add(lz.url())));
    }

    /**
     * USDC 31337 → weft-devnet-1 over the LayerZero lane, signed by the test key's EVM account (funded here with ether
     * and USDC), received by the same account's bech32 address on weft-devnet-1.
     */
    static JsonObject layerZeroFlow(LayerZeroSource lz) throws Exception {
        AccountAddress account =
                AccountAddress.fromEthSecp256k1(AccountAddress.compressedPublicKey(World.TEST_ACCOUNT_KEY));
        lz.fund(account.hex(), java.math.BigInteger.TEN.pow(19));
        lz.mint(account.hex(), 1_000_000_000);
        return flow(
                        "LayerZero transfer",
                        "1000000",
                        LayerZeroSource.CHAIN,
                        LayerZeroSource.TOKEN,
                        EVM,
                        LayerZeroSource.DEST_DENOM)
                .put(
                        "addresses",
                        new JsonObject()
                                .put(LayerZeroSource.CHAIN, account.checksumHex())
                                .put(EVM, account.bech32("init")))
                .put(
                        "evm",
                        new JsonObject().put("chain_id", LayerZeroSource.CHAIN).put("rpc", lz.url()));
    }

    @Test
    @DisplayName(
            "@skip-go/client executeRoute(): direct IBC, two-hop PFM, OP deposit, OP withdrawal, L1 swap, IBC then swap (one tx, hook memo), LayerZero reach completed; a transfer refused on arrival reaches failed, refunded; the seed flow reaches COMPLETED_SUCCESS; balances move by the amounts")
    void executeRoute() throws Exception {
        Path modules = Toolsets.file("skip-client", "node_modules/@skip-go/client/package.json")
                .getParent()
                .getParent()
                .getParent();
        LayerZeroSource lz = LayerZeroSource.start();
        weft.closeAfter(lz); // after the devnet reading it
        TrackingHarness h = TrackingHarness.start(
                weft,
                layerZero(TrackingHarness.config(), lz)
                        .set("devnet.relayer.error_receivers", new JsonArray().add(DevnetAccounts.REFUSES)));
        JsonObject chains = new JsonObject();
        for (String c : List.of(L1, EVM, MOVE)) {
            chains.put(
                    c,
                    new JsonObject()
                            .put("rpc", "http://127.0.0.1:" + h.rpcPort(c))
                            .put(
                                    "rest",
                                    "http://127.0.0.1:"
                                            + h.node()
                                                    .context()
                                                    .info()
                                                    .attachment(dev.weft.devnet.DevnetEndpoints.class)
                                                    .chain(c)
                                                    .orElseThrow()
                                                    .restPort()));
        }
        JsonArray flows = new JsonArray()
                .add(flow("direct IBC transfer", "1000", L1, "uinit", EVM, RouteFixtures.INIT_IBC_ROLLUP))
                .add(flow(
                        "two-hop PFM transfer",
                        "1000",
                        EVM,
                        RouteFixtures.INIT_IBC_ROLLUP,
                        MOVE,
                        RouteFixtures.INIT_IBC_ROLLUP))
                .add(flow("OP deposit", "1000", L1, "uinit", EVM, RouteFixtures.INIT_DEVNET))
                .add(flow("OP withdrawal", "1000", EVM, RouteFixtures.INIT_DEVNET, L1, "uinit"))
                .add(flow("L1 DEX swap", "1000", L1, "uusdc", L1, "uinit"))
                .add(flow(
                        "IBC then swap",
                        "1000",
                        EVM,
                        "ibc/8E27BA2D5493AF5636760E354E46004562C46AB7EC0CC4C1CA14E9E20E2545B5",
                        L1,
                        "uinit"))
                .add(layerZeroFlow(lz))
                // the receiver refuses the packet (an error ack): the route fails and the source is refunded
                .add(flow("IBC transfer refused on arrival", "1000", L1, "uinit", EVM, RouteFixtures.INIT_IBC_ROLLUP)
                        .put("addresses", new JsonObject().put(EVM, DevnetAccounts.REFUSES))
                        .put("expect", "failed"));
        JsonObject input = new JsonObject()
                .put("api", "http://127.0.0.1:" + h.api)
                .put("chains", chains)
                .put("key", String.format("%064x", World.TEST_ACCOUNT_KEY))
                .put("flows", flows)
                .put("seed", flow("seed", "1000", L1, "uinit", EVM, RouteFixtures.INIT_IBC_ROLLUP));
        ProcessBuilder pb = new ProcessBuilder(
                        "node",
                        Path.of("src/test/node/skip-client-e2e.mjs")
                                .toAbsolutePath()
                                .toString(),
                        input.encode())
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        pb.environment().put("SKIP_CLIENT_MODULES", modules.toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(10, TimeUnit.MINUTES);
        List<String> failed = new ArrayList<>();
        List<String> reported = new ArrayList<>();
        for (String line : out.split("\n")) {
            if (line.isBlank()) continue;
            System.out.println("skip-client " + line);
            JsonObject r = new JsonObject(line);
            reported.add(r.getString("name"));
            if (!r.getBoolean("ok", false)) failed.add(line);
            // the L1 runs Move ibc-hooks: the swap rides in the transfer's memo, so the client signs one tx
            if (r.getString("name").equals("IBC then swap"))
                assertEquals(1, r.getJsonArray("txs", new JsonArray()).size(), line);
        }
        List<String> expected = new ArrayList<>(
                flows.stream().map(f -> ((JsonObject) f).getString("name")).toList());
        expected.add("seed flow");
        assertEquals(expected, reported, out);
        assertEquals(List.of(), failed, out);
        assertEquals(0, p.exitValue());
    }
}
