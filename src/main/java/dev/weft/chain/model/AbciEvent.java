package dev.weft.chain.model;

import java.util.List;

/** A CometBFT {@code abci.Event} as {@code /block_results} shows it: a type and ordered attributes. */
public record AbciEvent(String type, List<Attribute> attributes) {
  public record Attribute(String key, String value, boolean index) {}
}
