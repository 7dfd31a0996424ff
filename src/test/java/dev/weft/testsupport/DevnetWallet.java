package dev.weft.testsupport;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.CosmosTx;
import dev.weft.devnet.tx.DirectSign;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * A wallet holding the devnet's well-known test keys ({@link DevnetAccounts}): it signs Cosmos txs SIGN_MODE_DIRECT
 * with the account number the chain's {@code /cosmos/auth/v1beta1/accounts} serves, and the sequence that endpoint
 * serves or, while its own earlier txs still wait in the chain's mempool ({@code num_unconfirmed_txs} above zero),
 * the one after its last, as a wallet sending several txs a block does.
 */
public final class DevnetWallet {
    private static final long GAS = 200_000;
    private final ToIntFunction<String> restPort;
    private final ToIntFunction<String> rpcPort;
    private final LocalHttp http = new LocalHttp();
    private final Map<String, Long> next = new HashMap<>();

    /** @param restPort a chain id's REST port; @param rpcPort its CometBFT RPC port */
    public DevnetWallet(ToIntFunction<String> restPort, ToIntFunction<String> rpcPort) {
        this.restPort = restPort;
        this.rpcPort = rpcPort;
    }

    /** The TxRaw of these messages signed by {@code signer}'s key for {@code chainId}, fee 3000 {@code feeDenom} (none if null). */
    public synchronized byte[] sign(String chainId, String signer, List<CosmosTx.Any> msgs, String feeDenom) {
        var key = DevnetAccounts.keyOf(signer);
        JsonObject account = account(chainId, signer);
        long committed = Long.parseLong(account.getString("sequence"));
        String slot = chainId + "/" + signer;
        long sequence = Math.max(committed, pending(chainId) ? next.getOrDefault(slot, 0L) : 0L);
        next.put(slot, sequence + 1);
        List<CosmosTx.Coin> fee = feeDenom == null ? List.of() : List.of(new CosmosTx.Coin(feeDenom, "3000"));
        CosmosTx unsigned = new CosmosTx(
                msgs,
                "",
                0,
                List.of(new CosmosTx.SignerInfo(
                        DirectSign.ETHSECP256K1, AccountAddress.compressedPublicKey(key), sequence)),
                new CosmosTx.Fee(fee, GAS, "", ""),
                List.of());
        return DirectSign.sign(unsigned, key, chainId, Long.parseLong(account.getString("account_number")));
    }

    private JsonObject account(String chainId, String address) {
        var r = http.get(restPort.applyAsInt(chainId), "/cosmos/auth/v1beta1/accounts/" + address);
        if (r.statusCode() != 200) throw new IllegalStateException(address + " on " + chainId + ": " + r.body());
        return new JsonObject(r.body()).getJsonObject("account");
    }

    private boolean pending(String chainId) {
        var r = http.get(rpcPort.applyAsInt(chainId), "/num_unconfirmed_txs");
        return !"0".equals(new JsonObject(r.body()).getJsonObject("result").getString("n_txs"));
    }
}
