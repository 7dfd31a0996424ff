package dev.weft.api;

import dev.weft.bus.Addresses;
import dev.weft.node.WeftNode;
import dev.weft.testsupport.HeadlessChromium;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestNodes;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.awt.image.BufferedImage;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The live page in a real headless Chromium: it subscribes over the SockJS bridge and shows updates as they arrive. */
class LivePageTest {

  @Test
  @DisplayName("the live page shows published blocks and transfer updates; a screenshot is kept in target/screenshots")
  void showsUpdates() throws Exception {
    Vertx vertx = TestNodes.newVertx();
    WeftNode node = TestNodes.start(vertx, TestConfig.defaults().roles("api").build());
    try (HeadlessChromium chrome = HeadlessChromium.launch()) {
      chrome.navigate("http://127.0.0.1:" + TestNodes.httpPort(node) + "/");
      chrome.waitFor("document.getElementById('conn').className === 'up'", 30);
      // the page registers right after the socket opens; publish until the first update shows, then a run of blocks
      for (int i = 0; i < 100 && Boolean.FALSE.equals(chrome.eval("!!document.querySelector('#blocks tr[data-key]')")); i++) {
        vertx.eventBus().publish(Addresses.BLOCK_INDEXED, block(1));
        Thread.sleep(50);
      }
      for (long h = 2; h <= 6; h++) vertx.eventBus().publish(Addresses.BLOCK_INDEXED, block(h));
      vertx.eventBus().publish(Addresses.TRANSFER_UPDATED, new JsonObject().put("tx_hash", "AB".repeat(32))
          .put("chain_id", "weft-l1-1").put("state", "STATE_COMPLETED_SUCCESS"));
      chrome.waitFor("document.querySelectorAll('#blocks tr[data-key]').length === 6", 30);
      assertEquals("6,5,4,3,2,1", chrome.eval("Array.from(document.querySelectorAll('#blocks tr td.h')).map(td => td.textContent).join(',')"));
      chrome.waitFor("document.querySelectorAll('#transfers tr[data-key]').length === 1", 30);
      assertEquals("STATE_COMPLETED_SUCCESS", chrome.eval("document.querySelector('#transfers td.state-STATE_COMPLETED_SUCCESS').textContent"));
      Path png = chrome.screenshot(Path.of("target/screenshots/live-page.png"));
      BufferedImage img = javax.imageio.ImageIO.read(png.toFile());
      assertEquals(1280, img.getWidth());
      assertTrue(img.getHeight() > 400, "viewport height " + img.getHeight());
      assertTrue(distinctColours(img) > 5, "the screenshot is blank");
    } finally {
      TestNodes.await(node.stop());
      TestNodes.await(vertx.close());
    }
  }

  private static JsonObject block(long h) {
    return new JsonObject().put("chain_id", "weft-devnet-1").put("height", h).put("hash", String.format("%064X", h))
        .put("tx_count", (int) (h % 3)).put("time", "2026-11-22T00:00:0" + h + "Z");
  }

  private static int distinctColours(BufferedImage img) {
    java.util.Set<Integer> colours = new java.util.HashSet<>();
    for (int y = 0; y < img.getHeight(); y += 7) for (int x = 0; x < img.getWidth(); x += 7) colours.add(img.getRGB(x, y));
    return colours.size();
  }
}
