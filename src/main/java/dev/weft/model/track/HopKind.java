package dev.weft.model.track;

/**
 * What a hop of a transfer crosses: an IBC packet, an OPinit deposit (L1 → L2), an OPinit withdrawal (L2 → L1) or a
 * LayerZero OFT message (from an EVM chain).
 */
public enum HopKind {
    IBC,
    OP_DEPOSIT,
    OP_WITHDRAWAL,
    LAYER_ZERO
}
