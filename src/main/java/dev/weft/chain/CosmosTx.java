package dev.weft.chain;

import dev.weft.chain.proto.ProtoReader;
import dev.weft.chain.proto.ProtoWriter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * A Cosmos {@code TxRaw} decoded generically: messages stay {@code Any}s (type URL + bytes); the JSON of messages comes
 * from the node's REST API. What an indexer needs from the raw bytes: hash, signatures, fee, gas limit and the signer
 * public keys. {@link #encode} builds the same bytes back (the devnet produces real TxRaw this way).
 */
public record CosmosTx(
        List<Any> messages,
        String memo,
        long timeoutHeight,
        List<SignerInfo> signerInfos,
        Fee fee,
        List<byte[]> signatures) {

    public record Any(String typeUrl, byte[] value) {}

    public record Coin(String denom, String amount) {}

    public record SignerInfo(String pubKeyType, byte[] pubKey, long sequence) {
        /** The signer's account address, for the key types Initia chains use; null for an unknown key type. */
        public AccountAddress address() {
            if (pubKey == null || pubKey.length == 0) return null;
            if (pubKeyType.endsWith("ethsecp256k1.PubKey")) return AccountAddress.fromEthSecp256k1(pubKey);
            if (pubKeyType.endsWith("secp256k1.PubKey")) return AccountAddress.fromSecp256k1(pubKey);
            return null;
        }
    }

    public record Fee(List<Coin> amount, long gasLimit, String payer, String granter) {}

    /** Upper-case hex SHA-256 of the raw bytes: the tx hash CometBFT and the REST API report. */
    public static String hash(byte[] raw) {
        return Hex.upper(Hashes.sha256(raw));
    }

    public static CosmosTx decodeBase64(String b64) {
        return decode(Base64.getDecoder().decode(b64));
    }

    public static CosmosTx decode(byte[] raw) {
        byte[] body = new byte[0];
        byte[] authInfo = new byte[0];
        List<byte[]> sigs = new ArrayList<>();
        ProtoReader r = new ProtoReader(raw);
        while (r.next()) {
            switch (r.field()) {
                case 1 -> body = r.bytes();
                case 2 -> authInfo = r.bytes();
                case 3 -> sigs.add(r.bytes());
                default -> r.skip();
            }
        }
        List<Any> msgs = new ArrayList<>();
        String memo = "";
        long timeout = 0;
        ProtoReader b = new ProtoReader(body);
        while (b.next()) {
            switch (b.field()) {
                case 1 -> msgs.add(any(b.bytes()));
                case 2 -> memo = b.string();
                case 3 -> timeout = b.varint();
                default -> b.skip();
            }
        }
        List<SignerInfo> signers = new ArrayList<>();
        Fee fee = new Fee(List.of(), 0, "", "");
        ProtoReader a = new ProtoReader(authInfo);
        while (a.next()) {
            switch (a.field()) {
                case 1 -> signers.add(signerInfo(a.bytes()));
                case 2 -> fee = fee(a.bytes());
                default -> a.skip();
            }
        }
        return new CosmosTx(msgs, memo, timeout, signers, fee, sigs);
    }

    private static Any any(byte[] bytes) {
        String url = "";
        byte[] value = new byte[0];
        ProtoReader r = new ProtoReader(bytes);
        while (r.next()) {
            switch (r.field()) {
                case 1 -> url = r.string();
                case 2 -> value = r.bytes();
                default -> r.skip();
            }
        }
        return new Any(url, value);
    }

    private static SignerInfo signerInfo(byte[] bytes) {
        String type = "";
        byte[] key = null;
        long seq = 0;
        ProtoReader r = new ProtoReader(bytes);
        while (r.next()) {
            switch (r.field()) {
                case 1 -> {
                    Any pk = any(r.bytes());
                    type = pk.typeUrl();
                    ProtoReader k = new ProtoReader(pk.value());
                    while (k.next()) {
                        if (k.field() == 1) key = k.bytes();
                        else k.skip();
                    }
                }
                case 3 -> seq = r.varint();
                default -> r.skip();
            }
        }
        return new SignerInfo(type, key, seq);
    }

    private static Fee fee(byte[] bytes) {
        List<Coin> coins = new ArrayList<>();
        long gas = 0;
        String payer = "";
        String granter = "";
        ProtoReader r = new ProtoReader(bytes);
        while (r.next()) {
            switch (r.field()) {
                case 1 -> coins.add(coin(r.bytes()));
                case 2 -> gas = r.varint();
                case 3 -> payer = r.string();
                case 4 -> granter = r.string();
                default -> r.skip();
            }
        }
        return new Fee(coins, gas, payer, granter);
    }

    public static Coin coin(byte[] bytes) {
        String denom = "";
        String amount = "";
        ProtoReader r = new ProtoReader(bytes);
        while (r.next()) {
            switch (r.field()) {
                case 1 -> denom = r.string();
                case 2 -> amount = r.string();
                default -> r.skip();
            }
        }
        return new Coin(denom, amount);
    }

    public static ProtoWriter coin(Coin c) {
        return new ProtoWriter().string(1, c.denom()).string(2, c.amount());
    }

    /** The TxRaw bytes: body, auth info (signers with SIGN_MODE_DIRECT) and signatures. */
    public byte[] encode() {
        ProtoWriter body = new ProtoWriter();
        for (Any m : messages)
            body.message(1, new ProtoWriter().string(1, m.typeUrl()).bytes(2, m.value()));
        body.string(2, memo).varint(3, timeoutHeight);
        ProtoWriter auth = new ProtoWriter();
        for (SignerInfo s : signerInfos) {
            ProtoWriter modeInfo =
                    new ProtoWriter().message(1, new ProtoWriter().varint(1, 1)); // single { mode: SIGN_MODE_DIRECT }
            // no key (a tx to simulate for an account whose key is unknown): the SDK's simulation uses a placeholder
            ProtoWriter info = new ProtoWriter();
            if (s.pubKey() != null && s.pubKey().length > 0) {
                info.message(
                        1,
                        new ProtoWriter()
                                .string(1, s.pubKeyType())
                                .bytes(2, new ProtoWriter().bytes(1, s.pubKey()).toByteArray()));
            }
            auth.message(1, info.message(2, modeInfo).varint(3, s.sequence()));
        }
        ProtoWriter f = new ProtoWriter();
        for (Coin c : fee.amount()) f.message(1, coin(c));
        f.varint(2, fee.gasLimit()).string(3, fee.payer()).string(4, fee.granter());
        auth.message(2, f);
        ProtoWriter raw = new ProtoWriter().bytes(1, body.toByteArray()).bytes(2, auth.toByteArray());
        for (byte[] sig : signatures) raw.bytesAlways(3, sig);
        return raw.toByteArray();
    }
}
