package dev.weft.chain.model;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * CometBFT 0.38 {@code /block_results}: one result per tx (events as light records, not JSON trees: they are most of
 * a block's bytes) and the block events. Parsed with a streaming parser, straight from the answer's bytes.
 */
public record BlockResults(long height, List<TxResult> txs, List<AbciEvent> finalizeBlockEvents) {

  /**
   * One {@code ExecTxResult}. {@code data} is base64 as on the wire; gas values are kept as the node's decimal text.
   */
  public record TxResult(int code, String codespace, String data, String log, String info, String gasWanted,
                         String gasUsed, List<AbciEvent> events) {
    public long gasWantedLong() {
      return parse(gasWanted);
    }

    public long gasUsedLong() {
      return parse(gasUsed);
    }

    private static long parse(String s) {
      return s == null || s.isEmpty() ? 0 : Long.parseLong(s);
    }
  }

  /** Reads a value from a parser positioned on the START_OBJECT of an answer's {@code result}. */
  @FunctionalInterface
  public interface Reader<T> {
    T read(JsonParser p) throws IOException;
  }

  /** Reads the {@code result} object; the parser is on its START_OBJECT. */
  public static BlockResults read(JsonParser p) throws IOException {
    return result(p);
  }

  /** Parses the {@code result} object (a tree already read, for callers that have one). */
  public static BlockResults parse(com.fasterxml.jackson.databind.JsonNode result) {
    try (JsonParser p = NodeJson.MAPPER.treeAsTokens(result)) {
      expect(p.nextToken(), JsonToken.START_OBJECT);
      return result(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static BlockResults result(JsonParser p) throws IOException {
    Long height = null;
    List<TxResult> txs = new ArrayList<>();
    List<AbciEvent> block = List.of();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String f = p.currentName();
      JsonToken t = p.nextToken();
      switch (f) {
        case "height" -> height = longOf(p, t, "height");
        case "txs_results" -> {
          if (t == JsonToken.START_ARRAY) while (p.nextToken() == JsonToken.START_OBJECT) txs.add(txResult(p));
          else if (t != JsonToken.VALUE_NULL) throw new IllegalArgumentException("txs_results is not an array");
        }
        case "finalize_block_events" -> block = events(p, t);
        default -> p.skipChildren();
      }
    }
    if (height == null) throw new IllegalArgumentException("missing height");
    return new BlockResults(height, txs, block);
  }

  private static TxResult txResult(JsonParser p) throws IOException {
    int code = 0;
    String codespace = "";
    String data = "";
    String log = "";
    String info = "";
    String gasWanted = "0";
    String gasUsed = "0";
    List<AbciEvent> events = List.of();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String f = p.currentName();
      JsonToken t = p.nextToken();
      switch (f) {
        case "code" -> code = t == JsonToken.VALUE_NULL ? 0 : p.getValueAsInt();
        case "codespace" -> codespace = text(p, t);
        case "data" -> data = text(p, t);
        case "log" -> log = text(p, t);
        case "info" -> info = text(p, t);
        case "gas_wanted" -> gasWanted = t == JsonToken.VALUE_NULL ? "0" : p.getValueAsString();
        case "gas_used" -> gasUsed = t == JsonToken.VALUE_NULL ? "0" : p.getValueAsString();
        case "events" -> events = events(p, t);
        default -> p.skipChildren();
      }
    }
    return new TxResult(code, codespace, data, log, info, gasWanted, gasUsed, events);
  }

  private static List<AbciEvent> events(JsonParser p, JsonToken t) throws IOException {
    if (t == JsonToken.VALUE_NULL) return List.of();
    if (t != JsonToken.START_ARRAY) throw new IllegalArgumentException("events is not an array");
    List<AbciEvent> out = new ArrayList<>();
    while (p.nextToken() == JsonToken.START_OBJECT) {
      String type = "";
      List<AbciEvent.Attribute> attrs = new ArrayList<>();
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String f = p.currentName();
        JsonToken v = p.nextToken();
        if (f.equals("type")) {
          type = text(p, v);
        } else if (f.equals("attributes") && v == JsonToken.START_ARRAY) {
          while (p.nextToken() == JsonToken.START_OBJECT) attrs.add(attribute(p));
        } else {
          p.skipChildren();
        }
      }
      out.add(new AbciEvent(type, attrs));
    }
    return out;
  }

  private static AbciEvent.Attribute attribute(JsonParser p) throws IOException {
    String key = "";
    String value = "";
    boolean index = false;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String f = p.currentName();
      JsonToken v = p.nextToken();
      switch (f) {
        case "key" -> key = text(p, v);
        case "value" -> value = text(p, v);
        case "index" -> index = v == JsonToken.VALUE_TRUE;
        default -> p.skipChildren();
      }
    }
    return new AbciEvent.Attribute(key, value, index);
  }

  private static String text(JsonParser p, JsonToken t) throws IOException {
    return t == JsonToken.VALUE_NULL ? "" : p.getValueAsString("");
  }

  private static long longOf(JsonParser p, JsonToken t, String field) throws IOException {
    if (t == JsonToken.VALUE_NUMBER_INT) return p.getLongValue();
    try {
      return Long.parseLong(p.getValueAsString("").trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(field + " is not an integer");
    }
  }

  private static void expect(JsonToken t, JsonToken want) {
    if (t != want) throw new IllegalArgumentException("expected " + want + " but found " + t);
  }
}
