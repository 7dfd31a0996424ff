package dev.weft.richlist;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.weft.chain.AccountAddress;
import dev.weft.chain.model.EvmLog;
import dev.weft.chain.model.NodeJson;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads a stored tx (its API JSON) for the rich list: the ERC-20 Transfer logs of its {@code evm} events (topic0 =
 * Transfer, exactly 3 topics, the amount in data), and the bank denoms its coin events move (so they can be mapped to
 * their ERC-20 once). Failed txs count too: their ante events (the fee) did happen.
 */
public final class Erc20Transfers {
  /** Cosmos SDK coin: an amount then a denom ({@code [a-zA-Z][a-zA-Z0-9/:._-]{2,127}}). */
  private static final Pattern COIN = Pattern.compile("(\\d+)([a-zA-Z][a-zA-Z0-9/:._-]{2,127})");
  private static final Set<String> COIN_EVENTS = Set.of("coin_spent", "coin_received", "transfer", "coinbase", "burn", "tx");

  /** One ERC-20 Transfer; {@code from} or {@code to} is the zero address on a mint or burn. */
  public record Transfer(AccountAddress token, AccountAddress from, AccountAddress to, BigInteger amount) {}

  private Erc20Transfers() {}

  /** Appends the transfers and bank denoms of one stored tx. */
  public static void read(byte[] txJson, List<Transfer> transfers, Set<String> denoms) {
    try (JsonParser p = NodeJson.FACTORY.createParser(txJson)) {
      if (p.nextToken() != JsonToken.START_OBJECT) return;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String f = p.currentName();
        JsonToken t = p.nextToken();
        if (f.equals("events") && t == JsonToken.START_ARRAY) {
          while (p.nextToken() == JsonToken.START_OBJECT) event(p, transfers, denoms);
        } else {
          p.skipChildren();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("stored tx is not JSON: " + e.getMessage(), e);
    }
  }

  private static void event(JsonParser p, List<Transfer> transfers, Set<String> denoms) throws IOException {
    String type = "";
    List<String[]> attrs = new ArrayList<>();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String f = p.currentName();
      JsonToken t = p.nextToken();
      if (f.equals("type")) {
        type = p.getValueAsString("");
      } else if (f.equals("attributes") && t == JsonToken.START_ARRAY) {
        while (p.nextToken() == JsonToken.START_OBJECT) {
          String key = "";
          String value = "";
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String k = p.currentName();
            p.nextToken();
            if (k.equals("key")) key = p.getValueAsString("");
            else if (k.equals("value")) value = p.getValueAsString("");
            else p.skipChildren();
          }
          attrs.add(new String[] {key, value});
        }
      } else {
        p.skipChildren();
      }
    }
    if (type.equals("evm")) {
      for (String[] a : attrs) if (a[0].equals("log") && EvmLog.mayBeTransfer(a[1])) transfer(a[1], transfers);
    } else if (COIN_EVENTS.contains(type)) {
      for (String[] a : attrs) if (a[0].equals("amount") || a[0].equals("fee")) coins(a[1], denoms);
    }
  }

  private static void transfer(String json, List<Transfer> out) {
    EvmLog log = EvmLog.parse(json);
    if (log == null || !log.isErc20Transfer()) return;
    AccountAddress token = log.contract();
    AccountAddress from = log.topicAddress(1);
    AccountAddress to = log.topicAddress(2);
    BigInteger amount = log.dataUint();
    if (token == null || from == null || to == null || amount == null || amount.signum() == 0) return;
    out.add(new Transfer(token, from, to, amount));
  }

  /** The denoms of a coins text such as {@code 1500uinit,20ibc/27A6…}. */
  static void coins(String text, Set<String> denoms) {
    for (String piece : text.split(",")) {
      var m = COIN.matcher(piece.trim());
      if (m.matches()) denoms.add(m.group(2));
    }
  }
}
