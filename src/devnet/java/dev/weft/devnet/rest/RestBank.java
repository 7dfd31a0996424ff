package dev.weft.devnet.rest;

import dev.weft.devnet.gen.Accounts;
import dev.weft.devnet.gen.Actor;
import dev.weft.devnet.gen.BankBalances;
import dev.weft.devnet.gen.DevnetChain;
import dev.weft.devnet.http.DevnetServer.Request;
import dev.weft.devnet.http.Reply;
import dev.weft.devnet.json.JsonOut;
import java.util.Base64;
import java.util.List;

/**
 * x/bank and x/auth queries of one account, as the SDK 0.50 gateway answers them: {@code AllBalances} (paged the
 * collections way), {@code Balance} by denom and {@code Account}. Balances are {@link BankBalances}' (the generated
 * chain's ERC-20 ledger; nothing on a quiet chain).
 */
final class RestBank {
    private final DevnetChain chain;

    RestBank(DevnetChain chain) {
        this.chain = chain;
    }

    /** The account bytes of a bech32 address of this chain; a 400 {@code invalid address: …} otherwise. */
    byte[] address(String s) {
        try {
            return dev.weft.devnet.gen.ChainSpec.bech32Bytes(s, chain.spec().bech32Prefix());
        } catch (IllegalArgumentException e) {
            throw CosmosRestServer.RestError.invalid("invalid address: " + e.getMessage());
        }
    }

    /**
     * {@code /cosmos/bank/v1beta1/balances/{address}}: {@code pagination.limit} (default 100, which also counts the
     * total, as {@code initPageRequestDefaults} does), {@code pagination.offset} or {@code pagination.key} (the base64
     * denom to start at, as the previous page's {@code next_key} gives it), {@code pagination.count_total}.
     */
    Reply balances(String addr, Request r) {
        List<BankBalances.Coin> all = BankBalances.of(chain, address(addr), chain.head());
        long offset = CosmosRestServer.longParam(r, "pagination.offset", 0);
        String key = r.param("pagination.key");
        if (key != null && !key.isEmpty() && offset > 0) {
            throw CosmosRestServer.RestError.invalid("invalid request, either offset or key is expected, got both");
        }
        BankBalances.Page page = BankBalances.page(
                all,
                key == null ? null : decode(key),
                offset,
                CosmosRestServer.longParam(r, "pagination.limit", 0),
                "true".equalsIgnoreCase(r.param("pagination.count_total")),
                "true".equalsIgnoreCase(r.param("pagination.reverse")));
        String nextKey = page.nextKey() == null ? null : Base64.getEncoder().encodeToString(page.nextKey());
        long total = page.total();
        return Reply.json(200, g -> {
            g.writeStartObject();
            g.writeArrayFieldStart("balances");
            for (BankBalances.Coin c : page.coins()) coin(g, c);
            g.writeEndArray();
            g.writeObjectFieldStart("pagination");
            if (nextKey == null) g.writeNullField("next_key");
            else g.writeStringField("next_key", nextKey);
            g.writeStringField("total", Long.toString(total));
            g.writeEndObject();
            g.writeEndObject();
        });
    }

    /** {@code /cosmos/bank/v1beta1/balances/{address}/by_denom?denom=}: {@code {"balance":{denom, amount}}}, zero when none. */
    Reply balance(String addr, String denom) {
        byte[] a = address(addr);
        if (denom == null || denom.isEmpty()) throw CosmosRestServer.RestError.invalid("invalid denom");
        BankBalances.Coin c = BankBalances.of(chain, a, chain.head(), denom);
        return Reply.json(200, g -> {
            g.writeStartObject();
            g.writeFieldName("balance");
            coin(g, c);
            g.writeEndObject();
        });
    }

    /**
     * {@code /cosmos/auth/v1beta1/accounts/{address}}: the chain's {@code BaseAccount} with the number and sequence
     * CheckTx verifies signatures against; on a node that takes no txs, 404 code 5 for an address outside genesis.
     */
    Reply account(String addr) {
        byte[] a = address(addr);
        Accounts.Account acc = chain.accounts().committed(a);
        if (acc == null) throw CosmosRestServer.RestError.notFound("account " + addr + " not found");
        String bech32 = dev.weft.chain.AccountAddress.of(a).bech32(chain.spec().bech32Prefix());
        return Reply.json(200, g -> {
            g.writeStartObject();
            g.writeFieldName("account");
            baseAccount(g, bech32, acc.number(), acc.sequence());
            g.writeEndObject();
        });
    }

    /** A genesis account as the account list shows it (its current sequence when the chain takes txs). */
    void baseAccount(JsonOut g, Actor a) {
        Accounts.Account acc = chain.accounts().committed(a.address());
        baseAccount(g, a.bech32(), a.accountNumber(), acc == null ? 0 : acc.sequence());
    }

    /**
     * A {@code BaseAccount} in proto JSON. The key is left unset, as for an account that has only received (the
     * devnet does not record the key a tx brings).
     */
    private static void baseAccount(JsonOut g, String bech32, long number, long sequence) {
        g.writeStartObject();
        g.writeStringField("@type", "/cosmos.auth.v1beta1.BaseAccount");
        g.writeStringField("address", bech32);
        g.writeNullField("pub_key");
        g.writeStringField("account_number", Long.toString(number));
        g.writeStringField("sequence", Long.toString(sequence));
        g.writeEndObject();
    }

    private static void coin(JsonOut g, BankBalances.Coin c) {
        g.writeStartObject();
        g.writeStringField("denom", c.denom());
        g.writeStringField("amount", c.amount().toString());
        g.writeEndObject();
    }

    private static byte[] decode(String key) {
        try {
            return Base64.getDecoder().decode(key);
        } catch (IllegalArgumentException e) {
            throw CosmosRestServer.RestError.invalid("invalid pagination key: " + key);
        }
    }
}
