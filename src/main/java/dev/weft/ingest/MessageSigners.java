package dev.weft.ingest;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.weft.chain.AccountAddress;
import dev.weft.chain.Bech32;
import dev.weft.chain.Hex;
import dev.weft.chain.model.NodeJson;
import dev.weft.chain.model.RestTx;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The signers of a tx as Cosmos SDK 0.50 derives them: from each message's signer field (the field its proto
 * annotates with {@code cosmos.msg.v1.signer}), not from {@code auth_info.signer_infos}, which an Ethermint-style
 * {@code MsgEthereumTx} leaves empty (its signer is its {@code from}, bytes or hex). Read from the REST-decoded
 * messages: a known type names its field; any other message uses the first present of the field names the SDK,
 * IBC, OPinit and the Initia VMs annotate ({@code from_address}, {@code sender}, {@code delegator_address}, …), so a
 * message that also names a counterparty (a delegation's {@code validator_address}, a grant's {@code grantee}) gives
 * its signer. Nested messages ({@code MsgExec}, proposals) are not signers of the tx.
 */
final class MessageSigners {
    /** Signer fields in the order they win when a message has several. */
    static final List<String> GENERIC = List.of(
            "from_address",
            "sender",
            "delegator_address",
            "granter",
            "voter",
            "depositor",
            "proposer",
            "authority",
            "signer",
            "from",
            "grantee",
            "executor",
            "admin",
            "validator_address");

    /** Types whose signer is not the first generic field they carry. */
    private static final Map<String, String> KNOWN = Map.of(
            "/cosmos.staking.v1beta1.MsgCreateValidator", "validator_address",
            "/cosmos.staking.v1beta1.MsgEditValidator", "validator_address",
            "/cosmos.distribution.v1beta1.MsgWithdrawValidatorCommission", "validator_address",
            "/cosmos.authz.v1beta1.MsgExec", "grantee",
            "/ethermint.evm.v1.MsgEthereumTx", "from",
            "/cosmos.evm.vm.v1.MsgEthereumTx", "from");

    private final String prefix;

    MessageSigners(String bech32Prefix) {
        this.prefix = bech32Prefix;
    }

    /** The distinct signers of the tx's messages, in message order (empty when none is recognised). */
    List<AccountAddress> of(RestTx tx) {
        Set<AccountAddress> out = new LinkedHashSet<>();
        try (JsonParser p = NodeJson.FACTORY.createParser(tx.source(), tx.start(), tx.length())) {
            if (p.nextToken() != JsonToken.START_OBJECT) return List.of();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String f = p.currentName();
                JsonToken t = p.nextToken();
                if (f.equals("body") && t == JsonToken.START_OBJECT) body(p, out);
                else p.skipChildren();
            }
        } catch (IOException | RuntimeException e) {
            // not a tx JSON this reader understands: what was read stands, and the public keys add theirs
        }
        return new ArrayList<>(out);
    }

    private void body(JsonParser p, Set<AccountAddress> out) throws IOException {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            JsonToken t = p.nextToken();
            if (f.equals("messages") && t == JsonToken.START_ARRAY) {
                while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                    if (t == JsonToken.START_OBJECT) message(p, out);
                    else p.skipChildren();
                }
            } else {
                p.skipChildren();
            }
        }
    }

    /** One message: its top-level string fields, the signer picked once the whole object is read (field order varies). */
    private void message(JsonParser p, Set<AccountAddress> out) throws IOException {
        String type = "";
        String[] candidates = new String[GENERIC.size()];
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            JsonToken t = p.nextToken();
            if (t == JsonToken.VALUE_STRING) {
                if (f.equals("@type")) type = p.getText();
                int i = GENERIC.indexOf(f);
                if (i >= 0) candidates[i] = p.getText();
            } else {
                p.skipChildren();
            }
        }
        String field = KNOWN.get(type);
        if (field != null) {
            AccountAddress a = address(candidates[GENERIC.indexOf(field)]);
            if (a != null) {
                out.add(a);
                return;
            }
        }
        for (String c : candidates) {
            AccountAddress a = address(c);
            if (a != null) {
                out.add(a);
                return;
            }
        }
    }

    /**
     * An account in any form a signer field takes: bech32 of the chain's prefix (an account or a validator operator,
     * whose bytes are its account's), 0x + 40 hex, or base64 of 20 bytes ({@code bytes} fields such as an Ethermint
     * {@code from}). Null for anything else.
     */
    AccountAddress address(String s) {
        if (s == null || s.isEmpty()) return null;
        if (s.startsWith(prefix + "1") || s.startsWith(prefix + "valoper1")) {
            try {
                Bech32.Decoded d = Bech32.decode(s);
                if ((d.prefix().equals(prefix) || d.prefix().equals(prefix + "valoper"))
                        && (d.data().length == 20 || d.data().length == 32)) {
                    return AccountAddress.of(d.data());
                }
            } catch (RuntimeException e) {
                return null;
            }
            return null;
        }
        if (s.length() == 42 && (s.startsWith("0x") || s.startsWith("0X")))
            return Hex.isHex(s, 20) ? AccountAddress.of(Hex.decode(s)) : null;
        if (s.length() == 28) {
            try {
                byte[] b = Base64.getDecoder().decode(s);
                return b.length == 20 ? AccountAddress.of(b) : null;
            } catch (IllegalArgumentException e) {
                return null;
            }
        }
        return null;
    }
}
