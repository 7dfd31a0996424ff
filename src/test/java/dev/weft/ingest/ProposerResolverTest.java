package dev.weft.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.chain.Bech32;
import dev.weft.chain.Hex;
import dev.weft.chain.client.CosmosRestClient;
import dev.weft.config.NodeClientOptions;
import dev.weft.model.ingest.IndexedBlock;
import dev.weft.testsupport.FixtureChain;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The proposer of a block, resolved through whichever validator module the fixture chain serves. */
class ProposerResolverTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    Vertx vertx;
    FixtureChain chain;
    CosmosRestClient rest;

    @BeforeEach
    void start() {
        vertx = weft.vertx();
        chain = FixtureChain.start(vertx, "fixture-1", 10);
        rest = new CosmosRestClient(
                vertx,
                List.of(chain.base() + "/rest"),
                NodeClientOptions.defaults().withAttempts(2));
    }

    @AfterEach
    void stop() {
        chain.close();
    }

    @Test
    @DisplayName(
            "by the valoper of the consensus address; else through the validator list by consensus key; else the bare valoper")
    void resolve() {
        byte[] proposer = Hex.decode(FixtureChain.PROPOSER);
        IndexedBlock.Proposer expected = new IndexedBlock.Proposer(FixtureChain.MONIKER, "", chain.operatorAddress());
        assertEquals(expected, TestNodes.await(new ProposerResolver(rest, "init").resolve(proposer)));
        chain.validatorNotFound = true;
        assertEquals(
                expected,
                TestNodes.await(new ProposerResolver(rest, "init").resolve(proposer)),
                "found in the list by its consensus key");
        byte[] stranger = new byte[20];
        stranger[0] = 7;
        assertEquals(
                new IndexedBlock.Proposer("", "", Bech32.encode("initvaloper", stranger)),
                TestNodes.await(new ProposerResolver(rest, "init").resolve(stranger)));
        long before = chain.requests.get();
        ProposerResolver cached = new ProposerResolver(rest, "init");
        TestNodes.await(cached.resolve(proposer));
        TestNodes.await(cached.resolve(proposer));
        assertEquals(before + 2, chain.requests.get(), "one lookup (validator, then the list) per proposer");
    }

    @Test
    @DisplayName(
            "a chain without opchild (501 Not Implemented): the staking module answers, and is the only one asked afterwards")
    void withoutOpchild() {
        chain.opchild = false;
        chain.staking = true;
        byte[] proposer = Hex.decode(FixtureChain.PROPOSER);
        ProposerResolver resolver = new ProposerResolver(rest, "init");
        long before = chain.requests.get();
        assertEquals(
                new IndexedBlock.Proposer(FixtureChain.MONIKER, "", chain.operatorAddress()),
                TestNodes.await(resolver.resolve(proposer)));
        assertEquals(before + 3, chain.requests.get(), "opchild validator (501), opchild list (501), staking list");
        byte[] stranger = new byte[20];
        stranger[0] = 7;
        assertEquals(
                new IndexedBlock.Proposer("", "", Bech32.encode("initvaloper", stranger)),
                TestNodes.await(resolver.resolve(stranger)));
        assertEquals(before + 4, chain.requests.get(), "a new proposer asks the remembered module alone");
    }

    @Test
    @DisplayName("a chain serving no validator module: the bare valoper, and no module is asked again")
    void noValidatorModule() {
        chain.opchild = false;
        byte[] proposer = Hex.decode(FixtureChain.PROPOSER);
        ProposerResolver resolver = new ProposerResolver(rest, "init");
        long before = chain.requests.get();
        assertEquals(new IndexedBlock.Proposer("", "", chain.valoper()), TestNodes.await(resolver.resolve(proposer)));
        assertEquals(
                before + 4,
                chain.requests.get(),
                "opchild validator, opchild list, staking list, mstaking list: each 501");
        byte[] stranger = new byte[20];
        stranger[0] = 7;
        assertEquals(
                new IndexedBlock.Proposer("", "", Bech32.encode("initvaloper", stranger)),
                TestNodes.await(resolver.resolve(stranger)));
        assertEquals(before + 4, chain.requests.get(), "known to serve none: no request");
    }

    @Test
    @DisplayName(
            "a node fault (500) is not \"not served\": the lookup fails (the height is retried) and is not remembered")
    void faultIsNotNotServed() {
        chain.failRate = 1;
        ProposerResolver resolver = new ProposerResolver(rest, "init");
        byte[] proposer = Hex.decode(FixtureChain.PROPOSER);
        org.junit.jupiter.api.Assertions.assertThrows(
                RuntimeException.class, () -> TestNodes.await(resolver.resolve(proposer)));
        chain.failRate = 0;
        assertEquals(
                new IndexedBlock.Proposer(FixtureChain.MONIKER, "", chain.operatorAddress()),
                TestNodes.await(resolver.resolve(proposer)));
    }
}
