package dev.weft.devnet.exec;

/**
 * The bank module's events for coins moving between accounts, minted or burned (on a Move chain preceded by the Move
 * VM's fungible-asset events: {@link MoveCoinEvents}). No transfer is refused for want of funds;
 * {@code SubmittedBalances} folds these events into the balances the chain serves.
 */
public final class Bank {
    private Bank() {}

    /** {@code "100uinit"}: the SDK's coin text. */
    public static String coin(String amount, String denom) {
        return amount + denom;
    }

    public static void send(EventLog log, String from, String to, String coin) {
        if (log.moveCoins() != null) log.moveCoins().send(log, from, to, coin);
        log.add("coin_spent", "spender", from, "amount", coin);
        log.add("coin_received", "receiver", to, "amount", coin);
        log.add("transfer", "recipient", to, "sender", from, "amount", coin);
        log.add("message", "sender", from);
    }

    /** Coins minted by a module account and sent to an account. */
    public static void mint(EventLog log, String module, String to, String coin) {
        if (log.moveCoins() != null) log.moveCoins().mint(log, module, coin);
        log.add("coin_received", "receiver", module, "amount", coin);
        log.add("coinbase", "minter", module, "amount", coin);
        send(log, module, to, coin);
    }

    /** Coins taken from an account into a module account and burned there. */
    public static void burn(EventLog log, String from, String module, String coin) {
        send(log, from, module, coin);
        if (log.moveCoins() != null) log.moveCoins().burn(log, module, coin);
        log.add("coin_spent", "spender", module, "amount", coin);
        log.add("burn", "burner", module, "amount", coin);
    }
}
