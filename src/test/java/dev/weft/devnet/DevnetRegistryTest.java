package dev.weft.devnet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.weft.config.ConfigSource;
import dev.weft.config.WeftConfig;
import dev.weft.devnet.config.DevnetConfig;
import dev.weft.devnet.gen.ChainSpec;
import dev.weft.devnet.gen.Genesis;
import dev.weft.devnet.gen.Token;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The default devnet is weft-devnet-1 of the route registry's devnet contract (conf/registry/devnet.json). */
class DevnetRegistryTest {

    @Test
    @DisplayName("EVM chain id, fee denom and every ERC-20 (denom, symbol, decimals, contract) are the registry's")
    void matchesTheRegistry() throws Exception {
        WeftConfig config =
                WeftConfig.from(ConfigSource.fileOnly(new JsonObject(Files.readString(Path.of("conf/weft.json")))));
        Genesis genesis =
                new Genesis(ChainSpec.of(DevnetConfig.from(config.source()), Instant.parse(DevnetHarness.GENESIS)));
        JsonObject registry = new JsonObject(Files.readString(Path.of("conf/registry/devnet.json")));
        JsonObject chain = registry.getJsonArray("chains").stream()
                .map(JsonObject.class::cast)
                .filter(c -> c.getString("chain_id").equals(config.chain().chainId()))
                .findFirst()
                .orElseThrow();
        assertEquals(
                chain.getString("evm_chain_id"), Long.toString(genesis.spec().evmChainId()));
        assertEquals(chain.getString("bech32_prefix"), genesis.spec().bech32Prefix());
        assertEquals(
                chain.getJsonArray("fee_assets").getJsonObject(0).getString("denom"),
                genesis.feeToken().bankDenom());
        List<String> expected = new ArrayList<>();
        for (Object o : registry.getJsonArray("assets")) {
            JsonObject a = (JsonObject) o;
            if (!a.getString("chain_id").equals(config.chain().chainId())) continue;
            expected.add(a.getString("denom") + " " + a.getString("symbol") + " " + a.getInteger("decimals") + " "
                    + a.getString("token_contract"));
            Token t = genesis.tokenByDenom(a.getString("denom"));
            assertNotNull(t, a.getString("denom"));
            assertEquals(a.getString("name"), t.name());
        }
        List<String> actual = new ArrayList<>();
        for (Token t : genesis.tokens())
            actual.add(t.bankDenom() + " " + t.symbol() + " " + t.decimals() + " "
                    + t.contract().checksum());
        assertEquals(expected, actual);
    }
}
