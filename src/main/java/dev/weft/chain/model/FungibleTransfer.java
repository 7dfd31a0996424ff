package dev.weft.chain.model;

import dev.weft.chain.AccountAddress;
import java.math.BigInteger;

/**
 * One movement of a fungible token between two accounts, as ingestion stores it for later stages (the rich list). The
 * zero address stands for the missing side of a mint or a burn.
 *
 * @param kind  where the movement comes from; its {@link Kind#code()} is the stored {@code kind} column
 * @param token the token: the ERC-20 contract (20 bytes), a Move fungible asset's metadata object or a CW20 contract
 *              (32 bytes)
 */
public record FungibleTransfer(
        Kind kind, AccountAddress token, AccountAddress from, AccountAddress to, BigInteger amount) {

    /** The sources of transfer rows. Codes are stored: never renumber. */
    public enum Kind {
        /** An ERC-20 {@code Transfer(address,address,uint256)} log: 3 topics, the amount in data. */
        ERC20(1),
        /**
         * A Move {@code 0x1::fungible_asset} DepositEvent or WithdrawEvent with the owner event that follows it (token =
         * the 32-byte metadata object, the account = the store's owner).
         */
        MOVE_FA(2),
        /** A CW20 {@code wasm} event ({@code transfer}, {@code send}, {@code mint}, {@code burn} and their {@code _from} forms). */
        CW20(3);

        private final int code;

        Kind(int code) {
            this.code = code;
        }

        public int code() {
            return code;
        }
    }
}
