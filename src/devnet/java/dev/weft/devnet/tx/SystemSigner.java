package dev.weft.devnet.tx;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.CosmosTx;
import dev.weft.devnet.gen.Mix;
import dev.weft.devnet.gen.TxBuilder;
import java.math.BigInteger;
import java.util.List;

/**
 * An account of the devnet's own bots on one chain (the IBC relayer, the OPinit executor): an ethsecp256k1 key
 * derived from the seed, the chain and the bot's name, and the txs it signs (real TxRaw with a counted sequence, a fee
 * in the chain's fee denom at 0.015 per gas, and a pseudo-random signature: nothing checks it).
 */
public final class SystemSigner {
    private static final BigInteger CURVE_N =
            new BigInteger("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141", 16);
    private static final long TAG_KEY = 71, TAG_SIG = 72;
    private static final long GAS_PER_MSG = 200_000;

    private final long seed;
    private final long id;
    private final byte[] pubKey;
    private final String address;
    private final String feeDenom;
    private long sequence;

    public SystemSigner(String name, String chainId, String prefix, String feeDenom, long seed) {
        this.seed = seed;
        this.id = Mix.hash(seed, (name + "@" + chainId).hashCode());
        BigInteger key = new BigInteger(1, Mix.bytes(seed, TAG_KEY, id, 32))
                .mod(CURVE_N.subtract(BigInteger.ONE))
                .add(BigInteger.ONE);
        this.pubKey = AccountAddress.compressedPublicKey(key);
        this.address = AccountAddress.fromEthSecp256k1(pubKey).bech32(prefix);
        this.feeDenom = feeDenom;
    }

    public String address() {
        return address;
    }

    /** A tx of these messages (type URL and proto JSON each), signed with the next sequence. */
    public byte[] sign(List<Message> msgs) {
        List<CosmosTx.Any> anys = msgs.stream()
                .map(m -> new CosmosTx.Any(
                        m.typeUrl(), MsgTypes.of(m.typeUrl()).schema().encode(m.value())))
                .toList();
        long gas = GAS_PER_MSG * msgs.size();
        long seq = sequence++;
        List<CosmosTx.Coin> fee =
                feeDenom == null ? List.of() : List.of(new CosmosTx.Coin(feeDenom, Long.toString(gas * 15 / 1000)));
        byte[] sig = Mix.bytes(seed, TAG_SIG, id ^ seq * 0x9E3779B97F4A7C15L, 64);
        return new CosmosTx(
                        anys,
                        "",
                        0,
                        List.of(new CosmosTx.SignerInfo(TxBuilder.ETHSECP256K1, pubKey, seq)),
                        new CosmosTx.Fee(fee, gas, "", ""),
                        List.of(sig))
                .encode();
    }

    /** A message to sign: its type URL and proto JSON. */
    public record Message(String typeUrl, io.vertx.core.json.JsonObject value) {
        public Message {
            if (MsgTypes.of(typeUrl) == null) throw new IllegalArgumentException("unknown message type " + typeUrl);
        }
    }
}
