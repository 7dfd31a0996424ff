package dev.weft.devnet.rest;

import dev.weft.chain.Hex;
import dev.weft.devnet.gen.DevnetChain;
import dev.weft.devnet.gen.Mix;
import dev.weft.devnet.gen.Validator;
import dev.weft.devnet.json.JsonOut;
import java.util.Base64;

/** The node's self-description (GetNodeInfo) and the validator set (opchild on a rollup, x/staking on a plain chain). */
final class RestNodeInfo {
    /** The minievm release the devnet claims; rollytics traces blocks only from v1.1.0 on. */
    static final String APP_VERSION = "v1.1.6";

    private static final byte[] CHANNELS = Hex.decode("40202122233038606100");

    private final DevnetChain chain;
    private final String nodeId;

    RestNodeInfo(DevnetChain chain) {
        this.chain = chain;
        this.nodeId = Hex.lower(Mix.bytes(chain.spec().seed(), 51, 0, 20));
    }

    void write(JsonOut g) {
        g.writeStartObject();
        g.writeObjectFieldStart("default_node_info");
        g.writeObjectFieldStart("protocol_version");
        g.writeStringField("p2p", "8");
        g.writeStringField("block", "11");
        g.writeStringField("app", "0");
        g.writeEndObject();
        g.writeStringField("default_node_id", nodeId);
        g.writeStringField("listen_addr", "tcp://0.0.0.0:26656");
        g.writeStringField("network", chain.spec().chainId());
        g.writeStringField("version", "0.38.17");
        g.writeStringField("channels", Base64.getEncoder().encodeToString(CHANNELS));
        g.writeStringField("moniker", chain.genesis().validators().get(0).moniker());
        g.writeObjectFieldStart("other");
        g.writeStringField("tx_index", "on");
        g.writeStringField("rpc_address", "tcp://0.0.0.0:26657");
        g.writeEndObject();
        g.writeEndObject();
        g.writeObjectFieldStart("application_version");
        g.writeStringField("name", "minitia");
        g.writeStringField("app_name", "minitiad");
        g.writeStringField("version", APP_VERSION);
        g.writeStringField("git_commit", Hex.lower(Mix.bytes(chain.spec().seed(), 52, 0, 20)));
        g.writeStringField("build_tags", "netgo,ledger");
        g.writeStringField("go_version", "go version go1.23.5 linux/amd64");
        g.writeArrayFieldStart("build_deps");
        g.writeEndArray();
        g.writeStringField("cosmos_sdk_version", "v0.50.13");
        g.writeEndObject();
        g.writeEndObject();
    }

    /** An opchild {@code Validator}: moniker, operator_address, consensus_pubkey (an Any), cons_power. */
    static void validator(JsonOut g, Validator v) {
        g.writeStartObject();
        g.writeStringField("moniker", v.moniker());
        g.writeStringField("operator_address", v.operatorAddress());
        g.writeObjectFieldStart("consensus_pubkey");
        g.writeStringField("@type", "/cosmos.crypto.ed25519.PubKey");
        g.writeStringField("key", v.pubKeyBase64());
        g.writeEndObject();
        g.writeStringField("cons_power", "1");
        g.writeEndObject();
    }

    /**
     * An x/staking {@code Validator} of SDK 0.50 (a plain chain's sequencer as its one bonded validator): operator
     * address, consensus key (an Any), bonded, unjailed, one token of power, its moniker, the default commission.
     */
    static void stakingValidator(JsonOut g, Validator v, String since) {
        g.writeStartObject();
        g.writeStringField("operator_address", v.operatorAddress());
        g.writeObjectFieldStart("consensus_pubkey");
        g.writeStringField("@type", "/cosmos.crypto.ed25519.PubKey");
        g.writeStringField("key", v.pubKeyBase64());
        g.writeEndObject();
        g.writeBooleanField("jailed", false);
        g.writeStringField("status", "BOND_STATUS_BONDED");
        g.writeStringField("tokens", "1000000");
        g.writeStringField("delegator_shares", "1000000.000000000000000000");
        g.writeObjectFieldStart("description");
        g.writeStringField("moniker", v.moniker());
        g.writeStringField("identity", "");
        g.writeStringField("website", "");
        g.writeStringField("security_contact", "");
        g.writeStringField("details", "");
        g.writeEndObject();
        g.writeStringField("unbonding_height", "0");
        g.writeStringField("unbonding_time", "1970-01-01T00:00:00Z");
        g.writeObjectFieldStart("commission");
        g.writeObjectFieldStart("commission_rates");
        g.writeStringField("rate", "0.100000000000000000");
        g.writeStringField("max_rate", "0.200000000000000000");
        g.writeStringField("max_change_rate", "0.010000000000000000");
        g.writeEndObject();
        g.writeStringField("update_time", since);
        g.writeEndObject();
        g.writeStringField("min_self_delegation", "1");
        g.writeStringField("unbonding_on_hold_ref_count", "0");
        g.writeArrayFieldStart("unbonding_ids");
        g.writeEndArray();
        g.writeEndObject();
    }

    /** The chain's genesis time (RFC 3339, seconds): when its validators were created. */
    String genesisTime() {
        return dev.weft.devnet.http.Times.rfc3339Seconds(
                chain.spec().genesisTime().toEpochMilli() * 1_000_000L);
    }

    /** The validator list: opchild's (no pagination beyond one page) or x/staking's. */
    void validators(JsonOut g, boolean staking) {
        String since = genesisTime();
        g.writeStartObject();
        g.writeArrayFieldStart("validators");
        for (Validator v : chain.genesis().validators()) {
            if (staking) stakingValidator(g, v, since);
            else validator(g, v);
        }
        g.writeEndArray();
        g.writeObjectFieldStart("pagination");
        g.writeNullField("next_key");
        g.writeStringField(
                "total", Integer.toString(chain.genesis().validators().size()));
        g.writeEndObject();
        g.writeEndObject();
    }
}
