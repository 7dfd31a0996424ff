package dev.weft.chain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class AccountAddressTest {

    @Test
    @DisplayName("bech32 and hex forms of one Initia account are the same bytes (real minievm data)")
    void bech32AndHex() {
        // from initia-minievm-tx-decoder-fixtures/bank-evm.json: the fee payer init1kw2u… is 0xb395c9f2… in the evm log
        // topics
        AccountAddress a = AccountAddress.parse("init1kw2unuhgfa6mz6r0ehrzlr9k9ftjk7pql8u5fm", "init");
        assertEquals("0xb395c9f2e84f75b1686fcdc62f8cb62a572b7820", a.hex());
        assertEquals(a, AccountAddress.parse("0xB395C9F2E84F75B1686FCDC62F8CB62A572B7820", "init"));
        assertEquals("init1kw2unuhgfa6mz6r0ehrzlr9k9ftjk7pql8u5fm", a.bech32("init"));
        assertEquals(32, AccountAddress.parse("0x1", "init").length());
    }

    @Test
    @DisplayName("bad checksums, wrong prefixes and junk are rejected")
    void rejects() {
        assertThrows(
                IllegalArgumentException.class,
                () -> AccountAddress.parse("init1kw2unuhgfa6mz6r0ehrzlr9k9ftjk7pql8u5fx", "init"));
        assertThrows(
                IllegalArgumentException.class,
                () -> AccountAddress.parse("cosmos1kw2unuhgfa6mz6r0ehrzlr9k9ftjk7pqs4dmqq", "init"));
        assertFalse(AccountAddress.isValid("hello", "init"));
        assertFalse(AccountAddress.isValid("0xzz", "init"));
        assertFalse(AccountAddress.isValid("b395c9f2", "init"));
        assertTrue(AccountAddress.isValid("b395c9f2e84f75b1686fcdc62f8cb62a572b7820", "init"));
    }

    @Test
    @DisplayName("anvil's first test key derives the well-known 0xf39F…2266 through ethsecp256k1")
    void ethAddressFromKey() {
        BigInteger key = new BigInteger("ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80", 16);
        AccountAddress a = AccountAddress.fromEthSecp256k1(AccountAddress.compressedPublicKey(key));
        assertEquals("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", a.checksumHex());
    }

    @Test
    @DisplayName("Keccak-256 and SHA3-256 are different functions")
    void digests() {
        assertEquals(
                "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470",
                Hex.lower(Hashes.keccak256(new byte[0])));
        assertEquals(
                "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a",
                Hex.lower(Hashes.sha3_256(new byte[0])));
    }
}
