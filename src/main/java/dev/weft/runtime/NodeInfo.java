package dev.weft.runtime;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Facts a running node learns while starting (ports actually bound, database description), for the start banner. */
public final class NodeInfo {
  private final Map<String, String> facts = new ConcurrentHashMap<>();

  public void put(String key, String value) {
    facts.put(key, value);
  }

  public String get(String key) {
    return facts.get(key);
  }

  public int port(String key) {
    String v = facts.get(key);
    return v == null ? 0 : Integer.parseInt(v);
  }
}
