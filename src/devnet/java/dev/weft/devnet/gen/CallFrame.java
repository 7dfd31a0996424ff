package dev.weft.devnet.gen;

import java.util.List;

/**
 * A callTracer frame as geth and Anvil print it: {@code value} absent for STATICCALL (null here), DELEGATECALL carrying
 * the parent's value, {@code output} absent when empty, {@code error}/{@code revertReason} on reverted frames,
 * {@code calls} absent when there are none. Quantities are hex strings.
 */
public record CallFrame(
        String type,
        String from,
        String to,
        String value,
        long gas,
        long gasUsed,
        String input,
        String output,
        String error,
        String revertReason,
        List<CallFrame> calls) {}
