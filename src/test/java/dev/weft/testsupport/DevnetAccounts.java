package dev.weft.testsupport;

import dev.weft.chain.AccountAddress;
import dev.weft.devnet.world.World;
import java.math.BigInteger;
import java.util.Arrays;

/**
 * The accounts multi-chain devnet tests send between. {@link #ALICE}, {@link #BOB} and {@link #CAROL} are Initia
 * ({@code ethsecp256k1}) accounts of the devnet's well-known test keys ({@link World#TEST_ACCOUNT_KEYS} 2 to 4), funded
 * on every chain, so {@link DevnetWallet} signs their txs for real; bech32 with prefix {@code init}, which every chain
 * of the devnet takes. {@link #NEVER_RELAYED} and {@link #REFUSES} only receive: tests configure the relayer with them
 * as a timeout receiver and an error receiver.
 */
public final class DevnetAccounts {
    private DevnetAccounts() {}

    public static final String ALICE = address(World.TEST_ACCOUNT_KEYS.get(1));
    public static final String BOB = address(World.TEST_ACCOUNT_KEYS.get(2));
    public static final String CAROL = address(World.TEST_ACCOUNT_KEYS.get(3));
    public static final String NEVER_RELAYED = addr(0x44);
    public static final String REFUSES = addr(0x55);

    /** The 20-byte account of byte {@code b} repeated, in bech32 with prefix {@code init} (an account without a key). */
    public static String addr(int b) {
        byte[] a = new byte[20];
        Arrays.fill(a, (byte) b);
        return AccountAddress.of(a).bech32("init");
    }

    /** The {@code init} address of a private key's ethsecp256k1 account. */
    public static String address(BigInteger key) {
        return AccountAddress.fromEthSecp256k1(AccountAddress.compressedPublicKey(key))
                .bech32("init");
    }

    /** The well-known test key whose ethsecp256k1 account is this address (any bech32 prefix); fails for any other. */
    public static BigInteger keyOf(String bech32) {
        byte[] bytes = dev.weft.chain.Bech32.decode(bech32).data();
        for (BigInteger k : World.TEST_ACCOUNT_KEYS) {
            if (Arrays.equals(
                    AccountAddress.fromEthSecp256k1(AccountAddress.compressedPublicKey(k))
                            .bytes(),
                    bytes)) return k;
        }
        throw new IllegalArgumentException(
                bech32 + " is no account of the devnet's test keys: the test cannot sign for it");
    }
}
