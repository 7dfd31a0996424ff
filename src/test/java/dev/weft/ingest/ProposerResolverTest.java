package dev.weft.ingest;

import dev.weft.model.ingest.IndexedBlock;
import dev.weft.chain.Bech32;
import dev.weft.chain.Hex;
import dev.weft.chain.client.CosmosRestClient;
import dev.weft.config.NodeClientOptions;
import dev.weft.testsupport.FixtureChain;
import dev.weft.testsupport.TestNodes;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The proposer of a block, resolved through the opchild REST API of the fixture chain. */
class ProposerResolverTest {
  Vertx vertx;
  FixtureChain chain;
  CosmosRestClient rest;

  @BeforeEach
  void start() {
    vertx = TestNodes.newVertx();
    chain = FixtureChain.start(vertx, "fixture-1", 10);
    rest = new CosmosRestClient(vertx, List.of(chain.base() + "/rest"), NodeClientOptions.defaults().withAttempts(2));
  }

  @AfterEach
  void stop() {
    chain.close();
    TestNodes.await(vertx.close());
  }

  @Test
  @DisplayName("by the valoper of the consensus address; else through the validator list by consensus key; else the bare valoper")
  void resolve() {
    byte[] proposer = Hex.decode(FixtureChain.PROPOSER);
    IndexedBlock.Proposer expected = new IndexedBlock.Proposer(FixtureChain.MONIKER, "", chain.operatorAddress());
    assertEquals(expected, TestNodes.await(new ProposerResolver(rest, "init").resolve(proposer)));
    chain.validatorNotFound = true;
    assertEquals(expected, TestNodes.await(new ProposerResolver(rest, "init").resolve(proposer)), "found in the list by its consensus key");
    byte[] stranger = new byte[20];
    stranger[0] = 7;
    assertEquals(new IndexedBlock.Proposer("", "", Bech32.encode("initvaloper", stranger)),
        TestNodes.await(new ProposerResolver(rest, "init").resolve(stranger)));
    long before = chain.requests.get();
    ProposerResolver cached = new ProposerResolver(rest, "init");
    TestNodes.await(cached.resolve(proposer));
    TestNodes.await(cached.resolve(proposer));
    assertEquals(before + 2, chain.requests.get(), "one lookup (validator, then the list) per proposer");
  }
}
