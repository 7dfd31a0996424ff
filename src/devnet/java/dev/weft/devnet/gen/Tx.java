package dev.weft.devnet.gen;

import dev.weft.chain.CosmosTx;
import java.util.List;

/**
 * One rendered tx: its real TxRaw bytes and hash, the decoded parts the REST API prints, its ABCI result (code, log,
 * gas, events) and, for a single-call tx, its EVM view. Immutable once built. A generated tx has its {@link #plan} and
 * {@link #signer}; a tx submitted to the devnet (a user's or a relayer's) has neither but its {@link #decoded} TxRaw.
 */
public final class Tx {
    /** The generator's plan; null for a submitted tx. */
    public final TxPlan plan;
    /** Position in the block (= in {@code block.data.txs} and {@code txs_results}). */
    public final int index;

    public final byte[] raw;
    public final String rawBase64;
    /** Upper-case hex SHA-256 of {@link #raw}: the Cosmos tx hash. */
    public final String hash;

    public final List<Msg> msgs;
    public final String memo;
    /** The generated signer; null for a submitted tx (its signers are in {@link #decoded}). */
    public final Actor signer;

    public final long sequence;
    public final List<CosmosTx.Coin> fee;
    public final long gasLimit;
    public final String signatureBase64;
    public final int code;
    public final String codespace;
    public final String log;
    /** TxMsgData bytes; null for a failed tx. */
    public final byte[] data;

    public final long gasUsed;
    public final List<Event> events;
    /** The EVM view, or null for a Cosmos-only tx. */
    public final EvmTx evm;
    /** The TxRaw of a submitted tx as decoded; null for a generated tx. */
    public final CosmosTx decoded;

    Tx(
            TxPlan plan,
            int index,
            byte[] raw,
            String rawBase64,
            String hash,
            List<Msg> msgs,
            String memo,
            Actor signer,
            long sequence,
            List<CosmosTx.Coin> fee,
            long gasLimit,
            String signatureBase64,
            int code,
            String codespace,
            String log,
            byte[] data,
            long gasUsed,
            List<Event> events,
            EvmTx evm) {
        this(
                plan,
                index,
                raw,
                rawBase64,
                hash,
                msgs,
                memo,
                signer,
                sequence,
                fee,
                gasLimit,
                signatureBase64,
                code,
                codespace,
                log,
                data,
                gasUsed,
                events,
                evm,
                null);
    }

    private Tx(
            TxPlan plan,
            int index,
            byte[] raw,
            String rawBase64,
            String hash,
            List<Msg> msgs,
            String memo,
            Actor signer,
            long sequence,
            List<CosmosTx.Coin> fee,
            long gasLimit,
            String signatureBase64,
            int code,
            String codespace,
            String log,
            byte[] data,
            long gasUsed,
            List<Event> events,
            EvmTx evm,
            CosmosTx decoded) {
        this.plan = plan;
        this.index = index;
        this.raw = raw;
        this.rawBase64 = rawBase64;
        this.hash = hash;
        this.msgs = msgs;
        this.memo = memo;
        this.signer = signer;
        this.sequence = sequence;
        this.fee = fee;
        this.gasLimit = gasLimit;
        this.signatureBase64 = signatureBase64;
        this.code = code;
        this.codespace = codespace;
        this.log = log;
        this.data = data;
        this.gasUsed = gasUsed;
        this.events = events;
        this.evm = evm;
        this.decoded = decoded;
    }

    /**
     * A tx submitted to the devnet and executed in a live block: its raw bytes as received, the decoded TxRaw, the
     * messages, and the result of its execution (a failed tx has {@code data} null and only the ante events).
     */
    public static Tx submitted(
            int index,
            byte[] raw,
            CosmosTx decoded,
            List<Msg> msgs,
            int code,
            String codespace,
            String log,
            byte[] data,
            long gasUsed,
            List<Event> events) {
        List<CosmosTx.SignerInfo> signers = decoded.signerInfos();
        String sig = decoded.signatures().isEmpty()
                ? ""
                : java.util.Base64.getEncoder()
                        .encodeToString(decoded.signatures().get(0));
        return new Tx(
                null,
                index,
                raw,
                java.util.Base64.getEncoder().encodeToString(raw),
                CosmosTx.hash(raw),
                msgs,
                decoded.memo(),
                null,
                signers.isEmpty() ? 0 : signers.get(0).sequence(),
                decoded.fee().amount(),
                decoded.fee().gasLimit(),
                sig,
                code,
                codespace,
                log,
                data,
                gasUsed,
                events,
                null,
                decoded);
    }

    /** The same submitted tx with its EVM view (a single-call tx whose call ran in the EVM). */
    public Tx withEvm(EvmTx view) {
        return new Tx(
                plan,
                index,
                raw,
                rawBase64,
                hash,
                msgs,
                memo,
                signer,
                sequence,
                fee,
                gasLimit,
                signatureBase64,
                code,
                codespace,
                log,
                data,
                gasUsed,
                events,
                view,
                decoded);
    }

    /** The same tx at another position of its block. */
    public Tx at(int newIndex) {
        return newIndex == index
                ? this
                : new Tx(
                        plan,
                        newIndex,
                        raw,
                        rawBase64,
                        hash,
                        msgs,
                        memo,
                        signer,
                        sequence,
                        fee,
                        gasLimit,
                        signatureBase64,
                        code,
                        codespace,
                        log,
                        data,
                        gasUsed,
                        events,
                        evm,
                        decoded);
    }

    /** The account number of a generated tx's signer (0 for a submitted tx, whose signer is no genesis actor). */
    public long accountNumber() {
        return signer == null ? 0 : signer.accountNumber();
    }

    /** The hash by which EVM tooling names this tx: the EVM hash, or 0x + the Cosmos hash for a Cosmos-only tx. */
    public String ethHash() {
        return evm != null ? evm.hash() : "0x" + hash.toLowerCase(java.util.Locale.ROOT);
    }
}
