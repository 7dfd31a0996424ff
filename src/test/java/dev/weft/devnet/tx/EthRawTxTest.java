package dev.weft.devnet.tx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.Hashes;
import dev.weft.chain.Hex;
import dev.weft.devnet.crypto.Rlp;
import dev.weft.devnet.crypto.Secp256k1;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class EthRawTxTest {
    /** The signed example of EIP-155 (key 0x46…46, nonce 9, 20 gwei, 21000 gas, to 0x35…35, 1 ether, chain 1). */
    static final String EIP155 =
            "f86c098504a817c800825208943535353535353535353535353535353535353535880de0b6b3a76400008025a028ef61340bd939bc2195fe537567866003e1a15d3c71ff63e1590620aa636276a067cbe9d8997f761aecb703304b3800ccf555c9f3dc64214b297fb1966a3b6d83";

    static final BigInteger KEY = BigInteger.valueOf(0xBEEF);
    static final long CHAIN = 1397;

    @Test
    @DisplayName("the EIP-155 example recovers to its signer 0x9d8a…5a4f; the hash is keccak256 of the raw bytes")
    void eip155Example() {
        byte[] raw = Hex.decode(EIP155);
        EthRawTx tx = EthRawTx.decode(raw, 1);
        assertEquals("0x9d8a62f656a8d1615c1294fd71e9cfb3e4855a4f", tx.from());
        assertEquals("0x3535353535353535353535353535353535353535", tx.to());
        assertEquals(0, tx.type());
        assertEquals(BigInteger.valueOf(9), tx.nonce());
        assertEquals(Hex.lower(Hashes.keccak256(raw)), tx.hash());
    }

    @Test
    @DisplayName("an EIP-1559 tx signed by a key recovers to that key's address; a contract creation has no to")
    void eip1559() {
        String expected = AccountAddress.fromEthSecp256k1(AccountAddress.compressedPublicKey(KEY))
                .hex()
                .toLowerCase();
        EthRawTx tx = EthRawTx.decode(eip1559(KEY, CHAIN, new byte[20], false), CHAIN);
        assertEquals(2, tx.type());
        assertEquals(expected, tx.from());
        assertEquals("0x" + "00".repeat(20), tx.to());
        assertNull(
                EthRawTx.decode(eip1559(KEY, CHAIN, new byte[0], false), CHAIN).to());
    }

    @Test
    @DisplayName(
            "refused: another chain id, a high-S twin, a y parity above 1, r = 0, an unprotected legacy tx, an unknown type, garbage")
    void refused() {
        assertEquals(
                "invalid chain id for signer: have 1 want 1397",
                assertThrows(EthRawTx.Invalid.class, () -> EthRawTx.decode(Hex.decode(EIP155), CHAIN))
                        .getMessage());
        assertEquals(
                "invalid transaction v, r, s values",
                assertThrows(
                                EthRawTx.Invalid.class,
                                () -> EthRawTx.decode(eip1559(KEY, CHAIN, new byte[20], true), CHAIN))
                        .getMessage());
        byte[] good = eip1559(KEY, CHAIN, new byte[20], false);
        List<byte[]> items = Rlp.list(Arrays.copyOfRange(good, 1, good.length));
        List<byte[]> parity = new ArrayList<>(items);
        parity.set(9, Rlp.encodeInteger(BigInteger.TWO));
        assertEquals(
                "invalid transaction v, r, s values",
                assertThrows(EthRawTx.Invalid.class, () -> EthRawTx.decode(typed(2, parity), CHAIN))
                        .getMessage());
        List<byte[]> zeroR = new ArrayList<>(items);
        zeroR.set(10, Rlp.encodeInteger(BigInteger.ZERO));
        assertEquals(
                "invalid transaction v, r, s values",
                assertThrows(EthRawTx.Invalid.class, () -> EthRawTx.decode(typed(2, zeroR), CHAIN))
                        .getMessage());
        List<byte[]> legacy = new ArrayList<>(Rlp.list(Hex.decode(EIP155)));
        legacy.set(6, Rlp.encodeInteger(BigInteger.valueOf(27)));
        assertEquals(
                "only replay-protected (EIP-155) transactions allowed over RPC",
                assertThrows(EthRawTx.Invalid.class, () -> EthRawTx.decode(Rlp.encodeList(legacy), 1))
                        .getMessage());
        assertEquals(
                "transaction type not supported",
                assertThrows(EthRawTx.Invalid.class, () -> EthRawTx.decode(typed(3, items), CHAIN))
                        .getMessage());
        assertEquals(
                "rlp: invalid transaction encoding",
                assertThrows(EthRawTx.Invalid.class, () -> EthRawTx.decode(new byte[] {(byte) 0xf8, 0x40, 1}, CHAIN))
                        .getMessage());
    }

    static byte[] typed(int type, List<byte[]> items) {
        byte[] body = Rlp.encodeList(items);
        byte[] out = new byte[body.length + 1];
        out[0] = (byte) type;
        System.arraycopy(body, 0, out, 1, body.length);
        return out;
    }

    /** A type-2 transfer of 1 wei signed with the key (optionally with the high-S twin of its signature). */
    static byte[] eip1559(BigInteger key, long chainId, byte[] to, boolean highS) {
        List<byte[]> fields = new ArrayList<>();
        fields.add(Rlp.encodeInteger(BigInteger.valueOf(chainId)));
        fields.add(Rlp.encodeInteger(BigInteger.valueOf(3)));
        fields.add(Rlp.encodeInteger(BigInteger.valueOf(1_000_000_000)));
        fields.add(Rlp.encodeInteger(BigInteger.valueOf(2_000_000_000)));
        fields.add(Rlp.encodeInteger(BigInteger.valueOf(21_000)));
        fields.add(to.length == 0 ? new byte[] {(byte) 0x80} : concat(new byte[] {(byte) (0x80 + to.length)}, to));
        fields.add(Rlp.encodeInteger(BigInteger.ONE));
        fields.add(new byte[] {(byte) 0x80});
        fields.add(new byte[] {(byte) 0xc0});
        byte[] digest = Hashes.keccak256(typed(2, fields));
        byte[] sig = Secp256k1.sign(key, digest);
        BigInteger r = new BigInteger(1, Arrays.copyOfRange(sig, 0, 32));
        BigInteger s = new BigInteger(1, Arrays.copyOfRange(sig, 32, 64));
        String expected = AccountAddress.fromEthSecp256k1(AccountAddress.compressedPublicKey(key))
                .hex()
                .toLowerCase();
        int y = EthRawTx.addressOf(EthRawTx.recover(digest, 0, Rlp.encodeInteger(r), Rlp.encodeInteger(s)))
                        .equals(expected)
                ? 0
                : 1;
        if (highS) {
            s = CustomNamedCurves.getByName("secp256k1").getN().subtract(s);
            y ^= 1;
        }
        fields.add(Rlp.encodeInteger(BigInteger.valueOf(y)));
        fields.add(Rlp.encodeInteger(r));
        fields.add(Rlp.encodeInteger(s));
        return typed(2, fields);
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
