package dev.weft.devnet.dex;

/** A fungible asset of the L1: its Cosmos denom and its metadata object address ({@code 0x} + 64 hex digits). */
record MoveCoin(String denom, String metadata) {}
