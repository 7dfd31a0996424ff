package dev.weft.ingest;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.model.AbciEvent;
import dev.weft.chain.model.FungibleTransfer;
import dev.weft.testsupport.FixtureChain;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The transfer rows and bank denoms ingestion reads from a tx's events. */
class FungibleTransfersTest {
  static final String TOKEN = "0xe1ff7038eaaaf027031688e1535a055b2bac2546";
  static final String SENDER = "0xb395c9f2e84f75b1686fcdc62f8cb62a572b7820";
  static final String COLLECTOR = "0xf1829676db577682e944fc3493d451b67ff3e29f";

  static AccountAddress a(String hex) {
    return AccountAddress.parse(hex, "init");
  }

  /** The events of a tx response as {@code /block_results} hands them to the assembler. */
  static List<AbciEvent> events(JsonObject txResponse) {
    List<AbciEvent> out = new ArrayList<>();
    for (Object o : txResponse.getJsonArray("events")) {
      JsonObject e = (JsonObject) o;
      List<AbciEvent.Attribute> attrs = new ArrayList<>();
      for (Object x : e.getJsonArray("attributes")) {
        JsonObject at = (JsonObject) x;
        attrs.add(new AbciEvent.Attribute(at.getString("key"), at.getString("value"), at.getBoolean("index", false)));
      }
      out.add(new AbciEvent(e.getString("type"), attrs));
    }
    return out;
  }

  @Test
  @DisplayName("the recorded minievm bank send: the fee Transfer and the (self) send Transfer, the bank denom the coin events move")
  void recordedBankSend() {
    JsonObject tx = FixtureChain.read("initia-minievm-tx-decoder-fixtures/bank-evm.json").getJsonObject("bankSendWithEvmLogTxResponse");
    List<FungibleTransfer> transfers = new ArrayList<>();
    Set<String> denoms = new LinkedHashSet<>();
    FungibleTransfers.read(events(tx), "init", transfers, denoms);
    assertEquals(List.of(
        new FungibleTransfer(FungibleTransfer.Kind.ERC20, a(TOKEN), a(SENDER), a(COLLECTOR), new BigInteger("c1df4c2ec0", 16)),
        new FungibleTransfer(FungibleTransfer.Kind.ERC20, a(TOKEN), a(SENDER), a(SENDER), new BigInteger("9184e72a000", 16))), transfers);
    assertEquals(Set.of("evm/E1Ff7038eAAAF027031688E1535a055B2Bac2546"), denoms);
  }

  @Test
  @DisplayName("coins texts: amounts then denoms, several per attribute, malformed pieces left out")
  void coins() {
    Set<String> denoms = new LinkedHashSet<>();
    FungibleTransfers.coins("1500uinit, 20ibc/27A6394C3F9FF9C9DCF5DFFADF9BB5FE9A37C7E92B006199894CF1824DF9AC7C,x,5u", denoms);
    assertEquals(List.of("uinit", "ibc/27A6394C3F9FF9C9DCF5DFFADF9BB5FE9A37C7E92B006199894CF1824DF9AC7C"), List.copyOf(denoms));
  }
}
