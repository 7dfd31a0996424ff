package dev.weft.ingest;

import dev.weft.model.ingest.IndexedBlock;
import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.chain.Bech32;
import dev.weft.chain.Hashes;
import dev.weft.chain.Hex;
import dev.weft.chain.client.CosmosRestClient;
import dev.weft.chain.model.NodeJson;
import io.vertx.core.Future;

import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Resolves a block's proposer (the consensus address of the header) to its moniker and operator address once per
 * proposer, at ingest time: REST {@code /opinit/opchild/v1/validator/{valoper}} with the valoper form of the consensus
 * address (what rollytics asks), else the validator list matched by consensus key. A proposer the node does not know
 * is stored with an empty moniker and that valoper, as rollytics shows it. Node failures fail the future (the height
 * is retried); a failed lookup is not cached.
 */
public final class ProposerResolver {
  private final CosmosRestClient rest;
  private final String valoperPrefix;
  private final Map<String, Future<IndexedBlock.Proposer>> cache = new ConcurrentHashMap<>();

  public ProposerResolver(CosmosRestClient rest, String bech32Prefix) {
    this.rest = rest;
    this.valoperPrefix = bech32Prefix + "valoper";
  }

  public Future<IndexedBlock.Proposer> resolve(byte[] consensusAddress) {
    if (consensusAddress == null || consensusAddress.length == 0) return Future.succeededFuture(new IndexedBlock.Proposer("", "", ""));
    String key = Hex.upper(consensusAddress);
    Future<IndexedBlock.Proposer> f = cache.computeIfAbsent(key, k -> lookup(consensusAddress));
    return f.onFailure(e -> cache.remove(key, f));
  }

  private Future<IndexedBlock.Proposer> lookup(byte[] consensusAddress) {
    String valoper = Bech32.encode(valoperPrefix, consensusAddress);
    return rest.validator(valoper).compose(v -> {
      if (v != null && !v.isMissingNode() && !v.isNull()) return Future.succeededFuture(of(v, valoper));
      return rest.validators()
          .recover(e -> e instanceof dev.weft.chain.client.NodeException ne && ne.notFound()
              ? Future.succeededFuture(List.of()) : Future.failedFuture(e))
          .map(list -> {
            for (JsonNode c : list) {
              if (Arrays.equals(consensusAddressOf(c.path("consensus_pubkey")), consensusAddress)) return of(c, valoper);
            }
            return new IndexedBlock.Proposer("", "", valoper);
          });
    });
  }

  private static IndexedBlock.Proposer of(JsonNode v, String fallbackOperator) {
    return new IndexedBlock.Proposer(NodeJson.text(v, "moniker", ""), "",
        NodeJson.text(v, "operator_address", fallbackOperator));
  }

  /** The consensus address of an Any-wrapped consensus public key (ed25519: first 20 bytes of its SHA-256). */
  static byte[] consensusAddressOf(JsonNode pubKey) {
    String type = NodeJson.text(pubKey, "@type", "");
    String key = NodeJson.text(pubKey, "key", null);
    if (key == null) return new byte[0];
    byte[] k;
    try {
      k = Base64.getDecoder().decode(key);
    } catch (IllegalArgumentException e) {
      return new byte[0];
    }
    if (type.endsWith("ed25519.PubKey")) return Arrays.copyOf(Hashes.sha256(k), 20);
    if (type.endsWith("secp256k1.PubKey")) return Hashes.ripemd160(Hashes.sha256(k));
    return new byte[0];
  }
}
