package dev.weft.devnet.exec;

import dev.weft.chain.Hashes;
import dev.weft.chain.Hex;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Move objects of a devnet Move chain other than fungible stores: NFT collections and NFTs made by
 * {@code 0x1::simple_nft}, each a named object of its creator (movevm {@code object.move}:
 * {@code sha3-256(creator ‖ seed ‖ 0xFE)}; a collection's seed is its name, an NFT's
 * {@code collection name ‖ "::" ‖ token id}, as {@code collection.move} and {@code nft.move} derive them), with its
 * owner as {@code 0x1::object::transfer} leaves it. Current state only; the REST resources read it.
 */
public final class MoveObjects {
    public enum Kind {
        COLLECTION,
        NFT
    }

    /** One object; its owner and version change with transfers. */
    public static final class Obj {
        public final Kind kind;
        public final byte[] address;
        public final byte[] creator;
        /** The collection's name, or the NFT's token id. */
        public final String name;

        public final String description;
        public final String uri;
        /** The NFT's collection (null for a collection). */
        public final byte[] collection;

        private volatile byte[] owner;
        private volatile long version = 1;

        Obj(Kind kind, byte[] address, byte[] creator, String name, String description, String uri, byte[] collection) {
            this.kind = kind;
            this.address = address;
            this.creator = creator;
            this.name = name;
            this.description = description;
            this.uri = uri;
            this.collection = collection;
            this.owner = creator;
        }

        public byte[] owner() {
            return owner;
        }

        public long version() {
            return version;
        }

        synchronized void transfer(byte[] to) {
            owner = to;
            version++;
        }
    }

    private final Map<String, Obj> objects = new ConcurrentHashMap<>();

    /** The object at that 32-byte address, or null. */
    public Obj get(byte[] address) {
        return objects.get(Hex.lower(address));
    }

    Obj add(Obj o) {
        objects.put(Hex.lower(o.address), o);
        return o;
    }

    /** The address of a named object: {@code sha3-256(creator ‖ seed ‖ 0xFE)}. */
    public static byte[] named(byte[] creator32, byte[] seed) {
        byte[] in = new byte[creator32.length + seed.length + 1];
        System.arraycopy(creator32, 0, in, 0, creator32.length);
        System.arraycopy(seed, 0, in, creator32.length, seed.length);
        in[in.length - 1] = (byte) 0xFE;
        return Hashes.sha3_256(in);
    }

    public static byte[] collectionAddress(byte[] creator32, String name) {
        return named(creator32, name.getBytes(StandardCharsets.UTF_8));
    }

    public static byte[] nftAddress(byte[] creator32, String collectionName, String tokenId) {
        return named(creator32, (collectionName + "::" + tokenId).getBytes(StandardCharsets.UTF_8));
    }
}
