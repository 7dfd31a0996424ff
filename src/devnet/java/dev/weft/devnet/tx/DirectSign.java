package dev.weft.devnet.tx;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.Bech32;
import dev.weft.chain.CosmosTx;
import dev.weft.chain.Hashes;
import dev.weft.chain.proto.ProtoReader;
import dev.weft.chain.proto.ProtoWriter;
import dev.weft.devnet.crypto.Secp256k1;
import dev.weft.devnet.gen.Accounts;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * SIGN_MODE_DIRECT signatures of Cosmos txs, as the SDK's ante handler checks them: the signed bytes are the proto
 * {@code SignDoc {body_bytes = 1, auth_info_bytes = 2, chain_id = 3, account_number = 4}} over the tx's own body and
 * auth info bytes, hashed with sha256 for {@code /cosmos.crypto.secp256k1.PubKey} and keccak256 for Initia's
 * {@code /initia.crypto.v1beta1.ethsecp256k1.PubKey} (cosmos-sdk x/auth/ante/sigverify.go, initia crypto/ethsecp256k1).
 * A signer whose mode is LEGACY_AMINO_JSON (Ledger) signs the {@link AminoJson} sign bytes instead, hashed the same way.
 */
public final class DirectSign {
    public static final String SECP256K1 = "/cosmos.crypto.secp256k1.PubKey";
    public static final String ETHSECP256K1 = "/initia.crypto.v1beta1.ethsecp256k1.PubKey";
    private static final long SIGN_MODE_DIRECT = 1;
    private static final long SIGN_MODE_LEGACY_AMINO_JSON = 127;

    private DirectSign() {}

    /** The SignDoc bytes a signer signs. */
    public static byte[] signDoc(byte[] bodyBytes, byte[] authInfoBytes, String chainId, long accountNumber) {
        return new ProtoWriter()
                .bytes(1, bodyBytes)
                .bytes(2, authInfoBytes)
                .string(3, chainId)
                .varint(4, accountNumber)
                .toByteArray();
    }

    /** The TxRaw of a one-signer tx signed with that key (its signer info says the key type and sequence). */
    public static byte[] sign(CosmosTx unsigned, BigInteger privateKey, String chainId, long accountNumber) {
        if (unsigned.signerInfos().size() != 1) throw new IllegalArgumentException("one signer expected");
        byte[][] parts = parts(new CosmosTx(
                        unsigned.messages(),
                        unsigned.memo(),
                        unsigned.timeoutHeight(),
                        unsigned.signerInfos(),
                        unsigned.fee(),
                        List.of())
                .encode());
        byte[] digest =
                digest(unsigned.signerInfos().get(0).pubKeyType(), signDoc(parts[0], parts[1], chainId, accountNumber));
        return new ProtoWriter()
                .bytes(1, parts[0])
                .bytes(2, parts[1])
                .bytesAlways(3, Secp256k1.sign(privateKey, digest))
                .toByteArray();
    }

    /**
     * Checks a decoded tx's signers as CheckTx's ante handler does, against the accounts' check state; throws
     * {@link DecodedTx.Rejected} (code 4 unauthorized, 8 invalid public key, 9 unknown address, 32 wrong sequence) and
     * otherwise answers the signer addresses whose sequence the tx increments. {@code simulate} skips the signature
     * itself, as the SDK's Simulate does.
     */
    public static List<byte[]> check(DecodedTx d, String chainId, Accounts accounts, boolean simulate) {
        List<byte[]> signers = signers(d);
        CosmosTx tx = d.tx();
        byte[][] parts = parts(d.raw());
        List<Long> modes = modes(parts[1]);
        if (tx.signatures().size() != tx.signerInfos().size()
                || signers.size() != tx.signatures().size()) {
            throw new DecodedTx.Rejected(
                    4,
                    "sdk",
                    "invalid number of signer;  expected: " + signers.size() + ", got "
                            + tx.signatures().size() + ": unauthorized");
        }
        // DeductFeeDecorator: the fee payer (the first signer) must be an account
        if (accounts.checkState(signers.get(0)) == null) {
            throw new DecodedTx.Rejected(
                    9,
                    "sdk",
                    "fee payer address: " + AccountAddress.of(signers.get(0)).bech32(prefix(d))
                            + " does not exist: unknown address");
        }
        for (int i = 0; i < signers.size(); i++) {
            CosmosTx.SignerInfo info = tx.signerInfos().get(i);
            AccountAddress key = info.address();
            // a simulation may leave the key out: the SDK's SetPubKeyDecorator then uses a placeholder key and does not
            // compare it with the signer (cosmos-sdk x/auth/ante/sigverify.go, simSecp256k1Pubkey)
            boolean noKey = info.pubKey() == null || info.pubKey().length == 0;
            if (!(simulate && noKey) && (key == null || !Arrays.equals(key.bytes(), signers.get(i)))) {
                throw new DecodedTx.Rejected(
                        8,
                        "sdk",
                        "pubKey does not match signer address "
                                + AccountAddress.of(signers.get(i)).bech32(prefix(d)) + " with signer index: " + i
                                + ": invalid pubkey");
            }
            Accounts.Account acc = accounts.checkState(signers.get(i));
            if (acc == null) {
                throw new DecodedTx.Rejected(
                        9,
                        "sdk",
                        "account " + AccountAddress.of(signers.get(i)).bech32(prefix(d))
                                + " does not exist: unknown address");
            }
            if (info.sequence() != acc.sequence()) {
                throw new DecodedTx.Rejected(
                        32,
                        "sdk",
                        "account sequence mismatch, expected " + acc.sequence() + ", got " + info.sequence()
                                + ": incorrect account sequence");
            }
            if (simulate) continue;
            byte[] signBytes = signBytes(d, parts, modes.get(i), chainId, acc.number(), info.sequence());
            if (signBytes == null
                    || !Secp256k1.verify(
                            info.pubKey(),
                            digest(info.pubKeyType(), signBytes),
                            tx.signatures().get(i))) {
                throw new DecodedTx.Rejected(
                        4,
                        "sdk",
                        "signature verification failed; please verify account number (" + acc.number()
                                + ") and chain-id (" + chainId + "): unauthorized");
            }
        }
        return signers;
    }

    /** What the signer signed in its sign mode; null for a mode the devnet does not verify (the signature then fails). */
    private static byte[] signBytes(
            DecodedTx d, byte[][] parts, long mode, String chainId, long accountNumber, long sequence) {
        if (mode == SIGN_MODE_DIRECT) return signDoc(parts[0], parts[1], chainId, accountNumber);
        if (mode != SIGN_MODE_LEGACY_AMINO_JSON) return null;
        try {
            return AminoJson.signBytes(d, chainId, accountNumber, sequence);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static byte[] digest(String keyType, byte[] signDoc) {
        return switch (keyType) {
            case SECP256K1 -> Hashes.sha256(signDoc);
            case ETHSECP256K1 -> Hashes.keccak256(signDoc);
            default ->
                throw new DecodedTx.Rejected(8, "sdk", "unsupported public key type " + keyType + ": invalid pubkey");
        };
    }

    /** The distinct message signers in order of first appearance, as the SDK's {@code GetSigners} lists them. */
    private static List<byte[]> signers(DecodedTx d) {
        List<byte[]> out = new ArrayList<>();
        for (DecodedTx.Msg m : d.msgs()) {
            byte[] a = addressBytes(m.signer());
            if (out.stream().noneMatch(o -> Arrays.equals(o, a))) out.add(a);
        }
        return out;
    }

    private static String prefix(DecodedTx d) {
        try {
            return Bech32.decode(d.msgs().get(0).signer()).prefix();
        } catch (RuntimeException e) {
            return "init";
        }
    }

    /** A signer field's account bytes: bech32, or hex where the chain takes it (EVM senders). */
    private static byte[] addressBytes(String signer) {
        try {
            return Bech32.decode(signer).data();
        } catch (RuntimeException e) {
            return AccountAddress.parse(signer, "-").bytes();
        }
    }

    /** TxRaw's body_bytes (1) and auth_info_bytes (2), as sent. */
    private static byte[][] parts(byte[] raw) {
        byte[][] out = {new byte[0], new byte[0]};
        ProtoReader r = new ProtoReader(raw);
        while (r.next()) {
            if (r.field() == 1) out[0] = r.bytes();
            else if (r.field() == 2) out[1] = r.bytes();
            else r.skip();
        }
        return out;
    }

    /** Each signer info's single sign mode (mode_info = 2 → single = 1 → mode = 1); 0 when absent or multi. */
    private static List<Long> modes(byte[] authInfo) {
        List<Long> out = new ArrayList<>();
        ProtoReader a = new ProtoReader(authInfo);
        while (a.next()) {
            if (a.field() != 1) {
                a.skip();
                continue;
            }
            long mode = 0;
            ProtoReader s = new ProtoReader(a.bytes());
            while (s.next()) {
                if (s.field() != 2) {
                    s.skip();
                    continue;
                }
                ProtoReader mi = new ProtoReader(s.bytes());
                while (mi.next()) {
                    if (mi.field() != 1) {
                        mi.skip();
                        continue;
                    }
                    ProtoReader single = new ProtoReader(mi.bytes());
                    while (single.next()) {
                        if (single.field() == 1) mode = single.varint();
                        else single.skip();
                    }
                }
            }
            out.add(mode);
        }
        return out;
    }
}
