package dev.weft.model.track;

/** What a hop of a transfer crosses: an IBC packet, an OPinit deposit (L1 → L2) or an OPinit withdrawal (L2 → L1). */
public enum HopKind { IBC, OP_DEPOSIT, OP_WITHDRAWAL }
