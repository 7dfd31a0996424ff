package dev.weft.model.nft;

import dev.weft.chain.AccountAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Folds the NFT changes of a run of consecutive blocks, in chain order, into the net effect per token, so that one
 * set of statements gives exactly the state a block-by-block application would: a token minted, transferred and burnt
 * within the run is deleted (if it existed before) and never inserted; one minted and transferred is inserted with its
 * last owner, URI and height. Tokens are identified by their Move object when they have one, else by (collection,
 * token id). Every change links its tx to its token; a Move object whose collection and token id the run does not
 * tell is linked through the stored token of that object. Pure; no I/O.
 */
public final class NftFold {
    /** One block's input: its time, the sequence of its first tx, the signer of each tx, and its resolved changes. */
    public record Block(
            long height, long timeNs, long firstSequence, List<AccountAddress> signers, List<NftEvent> events) {}

    public record Key(AccountAddress collection, String tokenId) {}

    /**
     * A collection the run touches (first touch wins; the insert keeps what is stored).
     *
     * @param fallbackCreator the signer of the first touching tx (EVM creators are the signer of the earliest tx)
     * @param sequence        the tx that created (or first showed) it
     */
    public record Collection(
            AccountAddress addr,
            String name,
            String search,
            AccountAddress creator,
            AccountAddress fallbackCreator,
            long height,
            long timeNs,
            long sequence) {}

    /** A token row as the run leaves it (owner null: the collection's creator, else the minting tx's signer). */
    public record Row(
            AccountAddress collection,
            String tokenId,
            AccountAddress object,
            AccountAddress owner,
            AccountAddress fallbackOwner,
            String uri,
            long height,
            long timeNs) {}

    /**
     * Changes to a token the run did not mint: a new owner and/or URI (null: unchanged), and the new height;
     * {@code seenUri} is the URI the chain gave at its last transfer (null: not read), for a token the database does not
     * hold yet (minted before the indexed history).
     */
    public record Partial(
            Key key,
            AccountAddress object,
            AccountAddress owner,
            String uri,
            String seenUri,
            long height,
            long timeNs) {}

    public record Link(Key key, long sequence) {}

    public record ObjectLink(AccountAddress object, long sequence) {}

    /**
     * One change of a token (mint, transfer, burn, URI), what {@code /collections/{addr}/activities} lists: by key, or
     * by Move object ({@code key} null) when the run does not tell the object's collection and token id.
     *
     * @param position its index among its block's NFT events (unique within the tx, stable across runs)
     * @param account  MINT: the owner (null: the collection's creator, else {@code signer}); TRANSFER: the new owner
     */
    public record Activity(
            Key key,
            AccountAddress object,
            long sequence,
            int position,
            NftEvent.Kind kind,
            AccountAddress account,
            AccountAddress signer,
            long height) {}

    public final List<Collection> collections = new ArrayList<>();
    public final Set<Key> keys = new LinkedHashSet<>();
    public final List<Link> links = new ArrayList<>();
    public final List<ObjectLink> objectLinks = new ArrayList<>();
    public final List<Activity> activities = new ArrayList<>();
    public final List<Activity> objectActivities = new ArrayList<>();
    public final List<Key> deleteKeys = new ArrayList<>();
    public final List<AccountAddress> deleteObjects = new ArrayList<>();
    public final List<Row> mints = new ArrayList<>();
    public final List<Partial> partialKeys = new ArrayList<>();
    public final List<Partial> partialObjects = new ArrayList<>();
    /** Origin names of collections received over ICS-721, by their name here (the received class id). */
    public final Map<String, String> originNames = new LinkedHashMap<>();

    private NftFold() {}

    public boolean isEmpty() {
        return collections.isEmpty()
                && links.isEmpty()
                && objectLinks.isEmpty()
                && activities.isEmpty()
                && objectActivities.isEmpty()
                && deleteKeys.isEmpty()
                && deleteObjects.isEmpty()
                && mints.isEmpty()
                && partialKeys.isEmpty()
                && partialObjects.isEmpty()
                && originNames.isEmpty();
    }

    /** The lower-case letters and digits of a name: what /collections/by_name compares. */
    public static String normalise(String name) {
        if (name == null) return "";
        StringBuilder sb = new StringBuilder(name.length());
        name.toLowerCase(Locale.ROOT)
                .codePoints()
                .filter(Character::isLetterOrDigit)
                .forEach(sb::appendCodePoint);
        return sb.toString();
    }

    /** The stored search text: normalised name and origin name, separated so a query cannot match across them. */
    public static String search(String name, String originName) {
        return normalise(name) + "|" + normalise(originName);
    }

    private static final class State {
        boolean burnt;
        MutableRow row;
        MutablePartial partial;
    }

    private static final class MutableRow {
        AccountAddress collection;
        String tokenId;
        AccountAddress object;
        AccountAddress owner;
        AccountAddress fallbackOwner;
        String uri;
        long height;
        long timeNs;
    }

    private static final class MutablePartial {
        AccountAddress owner;
        String uri;
        String seenUri;
        long height;
        long timeNs;
    }

    public static NftFold of(List<Block> blocks) {
        NftFold f = new NftFold();
        Map<AccountAddress, Boolean> seenCollections = new LinkedHashMap<>();
        Map<Object, State> states = new LinkedHashMap<>();
        Map<AccountAddress, Key> objectKeys = new LinkedHashMap<>();
        List<Object> linkRefs = new ArrayList<>();
        List<Long> linkSeqs = new ArrayList<>();
        List<Activity> pending = new ArrayList<>();
        for (Block b : blocks) {
            int position = -1;
            for (NftEvent e : b.events()) {
                position++;
                AccountAddress signer =
                        e.txIndex() < b.signers().size() ? b.signers().get(e.txIndex()) : null;
                if (e.kind() == NftEvent.Kind.ORIGIN) {
                    f.originNames.put(e.tokenId(), e.text());
                    continue;
                }
                if (e.kind() == NftEvent.Kind.COLLECTION) {
                    if (seenCollections.putIfAbsent(e.collection(), Boolean.TRUE) == null) {
                        String name = e.text() == null ? "" : e.text();
                        f.collections.add(new Collection(
                                e.collection(),
                                name,
                                search(name, ""),
                                e.account(),
                                signer,
                                b.height(),
                                b.timeNs(),
                                b.firstSequence() + e.txIndex()));
                    }
                    continue;
                }
                Object ref = e.object() != null ? e.object() : new Key(e.collection(), e.tokenId());
                if (e.object() != null && e.collection() != null && e.tokenId() != null)
                    objectKeys.put(e.object(), new Key(e.collection(), e.tokenId()));
                linkRefs.add(ref);
                linkSeqs.add(b.firstSequence() + e.txIndex());
                pending.add(new Activity(
                        ref instanceof Key k ? k : null,
                        e.object(),
                        b.firstSequence() + e.txIndex(),
                        position,
                        e.kind(),
                        e.account(),
                        signer,
                        b.height()));
                State st = states.computeIfAbsent(ref, r -> new State());
                switch (e.kind()) {
                    case MINT -> {
                        MutableRow r = new MutableRow();
                        r.collection = e.collection();
                        r.tokenId = e.tokenId();
                        r.object = e.object();
                        r.owner = e.account();
                        r.fallbackOwner = signer;
                        r.uri = e.text() == null ? "" : e.text();
                        r.height = b.height();
                        r.timeNs = b.timeNs();
                        st.row = r;
                        st.partial = null;
                    }
                    case TRANSFER, URI -> {
                        AccountAddress owner = e.kind() == NftEvent.Kind.TRANSFER ? e.account() : null;
                        String uri = e.kind() == NftEvent.Kind.URI ? e.text() : null;
                        if (st.row != null) {
                            if (owner != null) st.row.owner = owner;
                            if (uri != null) st.row.uri = uri;
                            st.row.height = b.height();
                            st.row.timeNs = b.timeNs();
                        } else {
                            if (st.partial == null) st.partial = new MutablePartial();
                            if (owner != null) st.partial.owner = owner;
                            if (uri != null) st.partial.uri = uri;
                            if (e.kind() == NftEvent.Kind.TRANSFER && e.text() != null) st.partial.seenUri = e.text();
                            st.partial.height = b.height();
                            st.partial.timeNs = b.timeNs();
                        }
                    }
                    case BURN -> {
                        st.burnt = true;
                        st.row = null;
                        st.partial = null;
                    }
                    default -> {}
                }
            }
        }
        for (int i = 0; i < linkRefs.size(); i++) {
            Object ref = linkRefs.get(i);
            Key k = ref instanceof Key key ? key : objectKeys.get((AccountAddress) ref);
            if (k != null) {
                f.keys.add(k);
                f.links.add(new Link(k, linkSeqs.get(i)));
            } else {
                f.objectLinks.add(new ObjectLink((AccountAddress) ref, linkSeqs.get(i)));
            }
        }
        for (Activity a : pending) {
            Key k = a.key() != null ? a.key() : objectKeys.get(a.object());
            if (k != null)
                f.activities.add(new Activity(
                        k, a.object(), a.sequence(), a.position(), a.kind(), a.account(), a.signer(), a.height()));
            else f.objectActivities.add(a);
        }
        Set<Key> minted = new LinkedHashSet<>();
        states.forEach((ref, st) -> {
            Key key = ref instanceof Key k ? k : null;
            AccountAddress object = ref instanceof AccountAddress a ? a : null;
            if (st.burnt) {
                if (key != null) f.deleteKeys.add(key);
                else f.deleteObjects.add(object);
            }
            if (st.row != null) {
                MutableRow r = st.row;
                // one row per (collection, token id) in an upsert; two objects claiming one id keep the later
                if (!minted.add(new Key(r.collection, r.tokenId)))
                    f.mints.removeIf(m ->
                            m.collection().equals(r.collection) && m.tokenId().equals(r.tokenId));
                f.mints.add(new Row(
                        r.collection, r.tokenId, r.object, r.owner, r.fallbackOwner, r.uri, r.height, r.timeNs));
            } else if (st.partial != null) {
                MutablePartial p = st.partial;
                Partial out = new Partial(key, object, p.owner, p.uri, p.seenUri, p.height, p.timeNs);
                if (key != null) f.partialKeys.add(out);
                else f.partialObjects.add(out);
            }
        });
        return f;
    }
}
