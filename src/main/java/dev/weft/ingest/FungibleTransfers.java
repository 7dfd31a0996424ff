package dev.weft.ingest;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.model.AbciEvent;
import dev.weft.chain.model.EvmLog;
import dev.weft.chain.model.FungibleTransfer;

import java.math.BigInteger;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What the rich list needs from a tx's events, read once at ingestion: the ERC-20 Transfer logs of its {@code evm}
 * events (topic0 = Transfer, exactly 3 topics, a non-zero amount in data), and the bank denoms its coin events move (so
 * they can be mapped to their ERC-20 once). Failed txs count too: their ante events (the fee) did happen.
 */
public final class FungibleTransfers {
  /** Cosmos SDK coin: an amount then a denom ({@code [a-zA-Z][a-zA-Z0-9/:._-]{2,127}}). */
  private static final Pattern COIN = Pattern.compile("(\\d+)([a-zA-Z][a-zA-Z0-9/:._-]{2,127})");
  private static final Set<String> COIN_EVENTS = Set.of("coin_spent", "coin_received", "transfer", "coinbase", "burn", "tx");

  private FungibleTransfers() {}

  /** Appends the transfers and bank denoms of one tx's events. */
  public static void read(List<AbciEvent> events, List<FungibleTransfer> transfers, Set<String> denoms) {
    for (AbciEvent e : events) {
      if (e.type().equals("evm")) {
        for (AbciEvent.Attribute a : e.attributes()) {
          if (a.key().equals("log") && a.value() != null && EvmLog.mayBeTransfer(a.value())) transfer(a.value(), transfers);
        }
      } else if (COIN_EVENTS.contains(e.type())) {
        for (AbciEvent.Attribute a : e.attributes()) {
          if ((a.key().equals("amount") || a.key().equals("fee")) && a.value() != null) coins(a.value(), denoms);
        }
      }
    }
  }

  private static void transfer(String json, List<FungibleTransfer> out) {
    EvmLog log = EvmLog.parse(json);
    if (log == null || !log.isErc20Transfer()) return;
    AccountAddress token = log.contract();
    AccountAddress from = log.topicAddress(1);
    AccountAddress to = log.topicAddress(2);
    BigInteger amount = log.dataUint();
    if (token == null || from == null || to == null || amount == null || amount.signum() == 0) return;
    out.add(new FungibleTransfer(FungibleTransfer.Kind.ERC20, token, from, to, amount));
  }

  /** The denoms of a coins text such as {@code 1500uinit,20ibc/27A6…}. */
  static void coins(String text, Set<String> denoms) {
    for (String piece : text.split(",")) {
      var m = COIN.matcher(piece.trim());
      if (m.matches()) denoms.add(m.group(2));
    }
  }
}
