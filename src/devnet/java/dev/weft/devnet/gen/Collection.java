package dev.weft.devnet.gen;

/** An ERC-721 collection of the chain; token URIs are {@code baseUri + tokenId}. */
public record Collection(int index, String name, String symbol, String baseUri, Actor contract) {
    public String tokenUri(long tokenId) {
        return baseUri + tokenId;
    }
}
