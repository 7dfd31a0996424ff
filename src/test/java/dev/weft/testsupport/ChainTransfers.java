package dev.weft.testsupport;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.CosmosTx;
import dev.weft.chain.model.EvmLog;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * The ground truth of ERC-20 and ERC-721 movements, read straight from a node's CometBFT RPC ({@code /block} for the
 * tx hashes, {@code /block_results} for the {@code evm} events), independently of what Weft indexed.
 */
public final class ChainTransfers {
    private ChainTransfers() {}

    /** A Transfer log: ERC-721 ({@code nft}, {@code value} = token id) or ERC-20 ({@code value} = amount). */
    public record Transfer(
            long height,
            int txIndex,
            String txHash,
            AccountAddress token,
            AccountAddress from,
            AccountAddress to,
            BigInteger value,
            boolean nft) {}

    public static List<Transfer> read(WebClient client, String rpcUrl, long from, long to) {
        List<Transfer> out = new ArrayList<>();
        for (long h = from; h <= to; h++) {
            JsonObject block = get(client, rpcUrl + "/block?height=" + h)
                    .getJsonObject("result")
                    .getJsonObject("block");
            JsonArray raw = block.getJsonObject("data").getJsonArray("txs");
            JsonArray results = get(client, rpcUrl + "/block_results?height=" + h)
                    .getJsonObject("result")
                    .getJsonArray("txs_results");
            if (raw == null || results == null) continue;
            for (int i = 0; i < raw.size(); i++) {
                String hash = CosmosTx.hash(Base64.getDecoder().decode(raw.getString(i)));
                JsonArray events = results.getJsonObject(i).getJsonArray("events", new JsonArray());
                for (Object e : events) {
                    JsonObject ev = (JsonObject) e;
                    if (!"evm".equals(ev.getString("type"))) continue;
                    for (Object a : ev.getJsonArray("attributes")) {
                        JsonObject at = (JsonObject) a;
                        if (!"log".equals(at.getString("key"))) continue;
                        EvmLog log = EvmLog.parse(at.getString("value"));
                        if (log == null) continue;
                        if (log.isErc721Transfer()) {
                            out.add(new Transfer(
                                    h,
                                    i,
                                    hash,
                                    log.contract(),
                                    log.topicAddress(1),
                                    log.topicAddress(2),
                                    log.topicUint(3),
                                    true));
                        } else if (log.isErc20Transfer()) {
                            out.add(new Transfer(
                                    h,
                                    i,
                                    hash,
                                    log.contract(),
                                    log.topicAddress(1),
                                    log.topicAddress(2),
                                    log.dataUint(),
                                    false));
                        }
                    }
                }
            }
        }
        return out;
    }

    private static JsonObject get(WebClient client, String url) {
        var r = TestNodes.await(client.getAbs(url).send());
        if (r.statusCode() != 200)
            throw new IllegalStateException(url + " → " + r.statusCode() + " " + r.bodyAsString());
        return r.bodyAsJsonObject();
    }
}
