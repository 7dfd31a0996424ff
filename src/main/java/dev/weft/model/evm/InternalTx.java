package dev.weft.model.evm;

/**
 * One flattened callTracer frame: its pre-order index within the tx (top frame 0), its parent's index (-1 for the top
 * frame), and the frame's fields re-encoded the rollytics way (see {@link CallFrames}). {@code error} and
 * {@code revertReason} are null unless the frame failed.
 */
public record InternalTx(
        int index,
        int parentIndex,
        String type,
        String from,
        String to,
        String input,
        String output,
        String value,
        String gas,
        String gasUsed,
        String error,
        String revertReason) {}
