package dev.weft.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.bus.Addresses;
import dev.weft.node.WeftNode;
import dev.weft.testsupport.HeadlessChromium;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The live page in a real headless Chromium: it subscribes over the SockJS bridge and shows updates as they arrive. */
class LivePageTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final String L1 = "weft-l1-1";

    @Test
    @DisplayName(
            "the live page shows blocks arriving from real ingestion and a transfer update; its link opens the API docs, which list both APIs; screenshots are kept")
    void showsUpdates() throws Exception {
        Vertx vertx = weft.vertx();
        // a live devnet, ingestion and the API: blocks arrive through the real pipeline and the SockJS bridge
        WeftNode node = weft.start(weft.config()
                .roles("devnet", "ingest", "api")
                .set("devnet.mode", "live")
                .set("devnet.history_blocks", 3)
                .set("devnet.block_interval", "150ms")
                .set("devnet.txs_per_block", 3)
                .set("ingest.poll_interval", "50ms")
                // a second indexed chain: the page lists both, the blocks table shows the default one's only
                .set("chains", new JsonObject().put(L1, new JsonObject().put("vm", "move"))));
        try (HeadlessChromium chrome = HeadlessChromium.launch()) {
            chrome.navigate("http://127.0.0.1:" + TestNodes.httpPort(node) + "/");
            chrome.waitFor("document.getElementById('conn').className === 'up'", 30);
            // blocks keep arriving: the table fills with consecutive heights, newest first
            chrome.waitFor("document.querySelectorAll('#blocks tr[data-key]').length >= 8", 60);
            String shown = (String)
                    chrome.eval(
                            "Array.from(document.querySelectorAll('#blocks tr td.h')).slice(0, 8).map(td => td.textContent).join(',')");
            long[] heights = java.util.Arrays.stream(shown.split(","))
                    .mapToLong(Long::parseLong)
                    .toArray();
            for (int i = 1; i < heights.length; i++)
                assertEquals(heights[i - 1] - 1, heights[i], "consecutive heights, newest first: " + shown);
            long newest = heights[0];
            chrome.waitFor("Number(document.querySelector('#blocks tr td.h').textContent) > " + newest, 30);
            vertx.eventBus()
                    .publish(
                            Addresses.TRANSFER_UPDATED,
                            new JsonObject()
                                    .put("tx_hash", "AB".repeat(32))
                                    .put("chain_id", "weft-l1-1")
                                    .put("state", "STATE_COMPLETED_SUCCESS"));
            chrome.waitFor("document.querySelectorAll('#transfers tr[data-key]').length === 1", 30);
            assertEquals(
                    "STATE_COMPLETED_SUCCESS",
                    chrome.eval("document.querySelector('#transfers td.state-STATE_COMPLETED_SUCCESS').textContent"));
            // every indexed chain in the chains table as GET /chains knows it: height, lag, ingest writer, a rate
            chrome.waitFor(
                    "Array.from(document.querySelectorAll('#chains tr[data-chain]')).filter(tr =>"
                            + " Number(tr.querySelector('.height').textContent) > 0"
                            + " && Number(tr.querySelector('.rate').textContent) > 0"
                            + " && tr.querySelector('.writer').textContent === "
                            + quoted(node.context().nodeId())
                            + ").length === 2",
                    60);
            assertEquals(
                    node.context().config().chains().defaultChainId() + "," + L1,
                    chrome.eval(
                            "Array.from(document.querySelectorAll('#chains tr[data-chain]')).map(tr => tr.dataset.chain).join(',')"));
            // a click on the second chain's row shows its blocks, consecutive, below its indexed height
            chrome.eval("document.querySelector('#chains tr[data-chain=\"" + L1 + "\"]').click()");
            chrome.waitFor("document.querySelectorAll('#blocks tr[data-key]').length >= 5", 30);
            String l1Shown = (String)
                    chrome.eval(
                            "Array.from(document.querySelectorAll('#blocks tr td.h')).slice(0, 5).map(td => td.textContent).join(',')");
            long[] l1Heights = java.util.Arrays.stream(l1Shown.split(","))
                    .mapToLong(Long::parseLong)
                    .toArray();
            for (int i = 1; i < l1Heights.length; i++)
                assertEquals(l1Heights[i - 1] - 1, l1Heights[i], L1 + " heights, newest first: " + l1Shown);
            long l1Indexed = TestNodes.await(io.vertx.ext.web.client.WebClient.create(vertx)
                            .get(TestNodes.httpPort(node), "127.0.0.1", "/chains/" + L1 + "/status")
                            .send())
                    .bodyAsJsonObject()
                    .getLong("height");
            assertTrue(l1Heights[0] <= l1Indexed, l1Shown + " above " + L1 + "'s indexed height " + l1Indexed);
            assertEquals("· " + L1, chrome.eval("document.getElementById('blocks-chain').textContent"));
            Path png = chrome.screenshot(Path.of("target/screenshots/live-page.png"));
            BufferedImage img = javax.imageio.ImageIO.read(png.toFile());
            assertEquals(1280, img.getWidth());
            assertTrue(img.getHeight() > 400, "viewport height " + img.getHeight());
            assertTrue(distinctColours(img) > 5, "the screenshot is blank");

            // the page links the API docs: Swagger UI renders the operations of both APIs from /openapi.json
            assertEquals("/docs", chrome.eval("document.getElementById('docs').getAttribute('href')"));
            chrome.navigate("http://127.0.0.1:" + TestNodes.httpPort(node) + "/docs");
            chrome.waitFor("document.querySelectorAll('.opblock-summary-path').length > 20", 60);
            String paths = (String)
                    chrome.eval(
                            "Array.from(document.querySelectorAll('.opblock-summary-path')).map(e => e.getAttribute('data-path')).join(' ')");
            for (String op : new String[] {
                "/indexer/tx/v1/txs", "/indexer/block/v1/blocks", "/v2/fungible/route", "/v2/tx/status"
            }) {
                assertTrue((" " + paths + " ").contains(" " + op + " "), op + " is not listed in the docs: " + paths);
            }
            BufferedImage docs = javax.imageio.ImageIO.read(
                    chrome.screenshot(Path.of("target/screenshots/docs.png")).toFile());
            assertTrue(distinctColours(docs) > 5, "the docs screenshot is blank");
        }
    }

    private static String quoted(String s) {
        return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    private static int distinctColours(BufferedImage img) {
        java.util.Set<Integer> colours = new java.util.HashSet<>();
        for (int y = 0; y < img.getHeight(); y += 7)
            for (int x = 0; x < img.getWidth(); x += 7) colours.add(img.getRGB(x, y));
        return colours.size();
    }
}
