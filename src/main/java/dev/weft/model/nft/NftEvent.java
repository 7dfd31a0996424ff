package dev.weft.model.nft;

import dev.weft.chain.AccountAddress;

/**
 * One NFT change of a tx, in chain order. A token is identified by its Move object when it has one, else by
 * (collection, token id). Parsers fill what the events say; {@link NftMetadata} completes names, token ids and URIs
 * from the node before the block is committed.
 *
 * @param txIndex    the tx's index in its block
 * @param collection the collection (contract or object); null for Move transfers and URI changes (object only)
 * @param tokenId    the token id; null until known (Move mints before their resource is read)
 * @param object     the Move NFT object; null on EVM and Wasm
 * @param account    COLLECTION: the creator (null when unknown); MINT: the owner (null: the collection's creator,
 *                   as Move mints to it); TRANSFER: the new owner
 * @param text       COLLECTION: the name (null until read); MINT and URI: the token URI (null until read); TRANSFER:
 *                   the token URI at the transfer, for a token minted before the indexed history (null: not read);
 *                   ORIGIN: the collection's name on the chain it came from over ICS-721 (its name here in
 *                   {@code tokenId}: the class id it received)
 */
public record NftEvent(
        Kind kind,
        int txIndex,
        AccountAddress collection,
        String tokenId,
        AccountAddress object,
        AccountAddress account,
        String text) {

    public enum Kind {
        COLLECTION,
        MINT,
        TRANSFER,
        BURN,
        URI,
        ORIGIN
    }

    public static NftEvent collection(int tx, AccountAddress collection, AccountAddress creator, String name) {
        return new NftEvent(Kind.COLLECTION, tx, collection, null, null, creator, name);
    }

    public static NftEvent mint(
            int tx,
            AccountAddress collection,
            String tokenId,
            AccountAddress object,
            AccountAddress owner,
            String uri) {
        return new NftEvent(Kind.MINT, tx, collection, tokenId, object, owner, uri);
    }

    public static NftEvent transfer(
            int tx, AccountAddress collection, String tokenId, AccountAddress object, AccountAddress to) {
        return new NftEvent(Kind.TRANSFER, tx, collection, tokenId, object, to, null);
    }

    public static NftEvent burn(int tx, AccountAddress collection, String tokenId, AccountAddress object) {
        return new NftEvent(Kind.BURN, tx, collection, tokenId, object, null, null);
    }

    public static NftEvent uri(int tx, AccountAddress object, String uri) {
        return new NftEvent(Kind.URI, tx, null, null, object, null, uri);
    }

    /** The collection named {@code classId} here came over ICS-721 from a collection named {@code originName}. */
    public static NftEvent origin(int tx, String classId, String originName) {
        return new NftEvent(Kind.ORIGIN, tx, null, classId, null, null, originName);
    }

    public NftEvent withTokenId(String id) {
        return new NftEvent(kind, txIndex, collection, id, object, account, text);
    }

    public NftEvent withText(String t) {
        return new NftEvent(kind, txIndex, collection, tokenId, object, account, t);
    }
}
