package dev.weft.model.evm;

import java.util.List;

/**
 * The internal txs of one height, ready to store: every frame of every traced EVM tx in chain order (the txs in block
 * order, each tx's frames in pre-order), each with its API item already rendered.
 *
 * @param txs     EVM txs whose frames are here
 * @param skipped trace entries left out: Cosmos txs a minievm node cannot trace, and failed txs it could not trace
 */
public record TracedBlock(long height, List<Row> rows, int txs, int skipped) {

    /** One frame: its tx's hash (32 bytes), the flattened frame and its API item (UTF-8 JSON). */
    public record Row(byte[] txHash, InternalTx frame, byte[] json) {}
}
