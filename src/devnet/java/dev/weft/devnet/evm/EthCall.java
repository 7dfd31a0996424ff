package dev.weft.devnet.evm;

import dev.weft.chain.Hex;
import dev.weft.devnet.gen.Abi;
import dev.weft.devnet.gen.Actor;
import dev.weft.devnet.gen.Collection;
import dev.weft.devnet.gen.DevnetChain;
import dev.weft.devnet.gen.Token;
import java.math.BigInteger;
import java.util.Locale;

/**
 * {@code eth_call} against the devnet's contracts at a height: ERC-20 {@code balanceOf}, {@code name}, {@code symbol},
 * {@code decimals}, {@code totalSupply}; ERC-721 {@code name}, {@code symbol}, {@code tokenURI}, {@code ownerOf}.
 * Anything else on a contract reverts; a call to an account without code returns {@code 0x}, as on a real node.
 */
final class EthCall {
    /** An {@code execution reverted} outcome, with the revert data (may be empty). */
    static final class Reverted extends RuntimeException {
        final String data;

        Reverted(String data) {
            super("execution reverted");
            this.data = data;
        }
    }

    private final DevnetChain chain;

    EthCall(DevnetChain chain) {
        this.chain = chain;
    }

    /** The return data, or throws {@link Reverted}. */
    String call(byte[] to, String data, long h) {
        String input = data == null ? "0x" : data.toLowerCase(Locale.ROOT);
        if (!input.startsWith("0x")) input = "0x" + input;
        String selector = input.length() >= 10 ? input.substring(0, 10) : input;
        Token token = chain.genesis().tokenAt(to);
        if (token != null) return token(token, selector, input, h);
        Collection coll = chain.genesis().collectionAt(to);
        if (coll != null) return collection(coll, selector, input, h);
        if (isContract(to)) throw new Reverted("0x");
        return "0x";
    }

    /** Whether an address holds code: the contracts block 1 deploys (tokens, collections, the router and its library). */
    boolean hasCode(byte[] to) {
        return chain.genesis().tokenAt(to) != null || chain.genesis().collectionAt(to) != null || isContract(to);
    }

    private boolean isContract(byte[] to) {
        var g = chain.genesis();
        return java.util.Arrays.equals(to, g.router().address())
                || java.util.Arrays.equals(to, g.feeLib().address());
    }

    private String token(Token t, String selector, String input, long h) {
        if (selector.equals(Abi.BALANCE_OF)) {
            byte[] who = addressArg(input, 0);
            return "0x" + Abi.word(chain.balanceOf(t, who, h));
        }
        if (selector.equals(Abi.NAME)) return "0x" + Abi.string(t.name());
        if (selector.equals(Abi.SYMBOL)) return "0x" + Abi.string(t.symbol());
        if (selector.equals(Abi.DECIMALS)) return "0x" + Abi.word(t.decimals());
        if (selector.equals(Abi.TOTAL_SUPPLY))
            return "0x" + Abi.word(chain.ledger().totalSupply(t, h));
        throw new Reverted("0x");
    }

    private String collection(Collection c, String selector, String input, long h) {
        if (selector.equals(Abi.NAME)) return "0x" + Abi.string(c.name());
        if (selector.equals(Abi.SYMBOL)) return "0x" + Abi.string(c.symbol());
        if (selector.equals(Abi.TOKEN_URI) || selector.equals(Abi.OWNER_OF)) {
            BigInteger id = uintArg(input, 0);
            Actor owner = id.bitLength() > 62 ? null : chain.ownerOf(c, id.longValue(), h);
            if (owner == null) throw new Reverted(Abi.NONEXISTENT_TOKEN + Abi.word(id));
            return "0x"
                    + (selector.equals(Abi.OWNER_OF) ? Abi.word(owner.hex()) : Abi.string(c.tokenUri(id.longValue())));
        }
        throw new Reverted("0x");
    }

    private static String arg(String input, int i) {
        int from = 10 + 64 * i;
        if (input.length() < from + 64) throw new Reverted("0x");
        return input.substring(from, from + 64);
    }

    private static byte[] addressArg(String input, int i) {
        return Hex.decode(arg(input, i).substring(24));
    }

    private static BigInteger uintArg(String input, int i) {
        return new BigInteger(arg(input, i), 16);
    }
}
