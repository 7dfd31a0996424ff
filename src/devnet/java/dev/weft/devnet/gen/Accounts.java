package dev.weft.devnet.gen;

import dev.weft.chain.Hex;
import java.util.HashMap;
import java.util.Map;

/**
 * The x/auth state of one devnet chain: each account's number and sequence. The REST auth endpoint, the ABCI account
 * query and the account list serve the committed sequence (what delivered txs' {@code acc_seq} reached); CheckTx and
 * Simulate check against the check state, which also counts the txs CheckTx accepted into the mempool (the SDK's
 * {@code IncrementSequenceDecorator} runs in both). A genesis actor is an account with its genesis number; any other
 * address becomes one when it first receives coins or signs, numbered after the genesis accounts, as x/auth does.
 */
public final class Accounts {
    /** An account's number and sequence. */
    public record Account(long number, long sequence) {}

    private final Genesis genesis;
    private final boolean generated;
    /** hex address → {number, committed sequence, check-state sequence} */
    private final Map<String, long[]> accounts = new HashMap<>();

    private long nextNumber;

    Accounts(Genesis genesis, boolean generated) {
        this.genesis = genesis;
        this.generated = generated;
        this.nextNumber = genesis.actorCount() + 1L;
    }

    /** The committed account at that address; null when the chain has none. */
    public synchronized Account committed(byte[] address) {
        long[] a = entry(address, false);
        return a == null ? null : new Account(a[0], a[1]);
    }

    /** The account as CheckTx sees it (mempool txs counted); null when the chain has none. */
    public synchronized Account checkState(byte[] address) {
        long[] a = entry(address, false);
        return a == null ? null : new Account(a[0], a[2]);
    }

    /** CheckTx accepted a tx this account signed. */
    public synchronized void checked(byte[] address) {
        entry(address, true)[2]++;
    }

    /** The account exists from now on (a genesis grant, or it received coins). */
    public synchronized void create(byte[] address) {
        entry(address, true);
    }

    /** A delivered tx carried {@code sequence} for this signer: the next one is {@code sequence + 1}. */
    synchronized void delivered(byte[] address, long sequence) {
        long[] a = entry(address, true);
        a[1] = Math.max(a[1], sequence + 1);
        a[2] = Math.max(a[2], a[1]);
    }

    private long[] entry(byte[] address, boolean create) {
        String key = Hex.lower(address);
        long[] a = accounts.get(key);
        if (a != null) return a;
        Actor actor = generated ? genesis.find(address) : null;
        if (actor == null && !create) return null;
        a = new long[] {actor != null ? actor.accountNumber() : nextNumber++, 0, 0};
        accounts.put(key, a);
        return a;
    }
}
