package dev.weft.testsupport;

import dev.weft.node.WeftNode;
import dev.weft.store.Database;
import io.vertx.core.Vertx;
import java.util.ArrayDeque;
import java.util.Deque;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What a node test sets up, as one JUnit 5 extension: a Vert.x like the launcher's, configurations each on a fresh
 * database, nodes (the devnet is a node role) and databases started on that Vert.x. Register it on a static field:
 *
 * <pre>
 * &#64;RegisterExtension
 * static final WeftExtension weft = new WeftExtension();
 *
 * &#64;BeforeAll
 * static void start() {
 *     node = weft.start(weft.config().roles("api"));
 * }
 * </pre>
 *
 * Everything lives as long as the scope it was asked for in: the class when asked in {@code @BeforeAll}, the test
 * when asked in {@code @BeforeEach} or the test itself. When the scope ends, failed or not, it is closed newest first
 * (nodes and databases before the Vert.x they run on); a failing close does not stop the others and fails the scope.
 * It resolves no parameters, so it composes with vertx-junit5's {@code VertxExtension} (its
 * {@code VertxTestContext}) on the same class.
 */
public final class WeftExtension implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {
    /** The open scopes, innermost first: the class's, then the running test's. */
    private final Deque<Scope> scopes = new ArrayDeque<>();

    private static final class Scope {
        final String owner;
        Vertx vertx;
        final Deque<AutoCloseable> closing = new ArrayDeque<>();

        Scope(String owner) {
            this.owner = owner;
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        open(context.getUniqueId());
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        open(context.getUniqueId());
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        close(context.getUniqueId());
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        close(context.getUniqueId());
    }

    void open(String owner) {
        scopes.push(new Scope(owner));
    }

    /**
     * Closes what the scope of {@code owner} opened, newest first; throws the first failure, the others suppressed.
     * JUnit calls the after-callbacks even when an earlier extension's before-callback failed and {@link #open} never
     * ran: then there is nothing of {@code owner}'s to close.
     */
    void close(String owner) throws Exception {
        if (scopes.isEmpty() || !scopes.peek().owner.equals(owner)) return;
        Scope scope = scopes.pop();
        Exception failure = null;
        while (!scope.closing.isEmpty()) {
            try {
                scope.closing.pop().close();
            } catch (Exception e) {
                if (failure == null) failure = e;
                else failure.addSuppressed(e);
            }
        }
        if (failure != null) throw failure;
    }

    private Scope current() {
        Scope s = scopes.peek();
        if (s == null)
            throw new IllegalStateException(
                    "WeftExtension is used outside a test: register it on a static field and ask in @BeforeAll,"
                            + " @BeforeEach or a test");
        return s;
    }

    /**
     * The Vert.x of the innermost scope that has one; when none has, a new one for the current scope. Nodes of one
     * class share it (and its event bus) unless a test asks for {@link #newVertx()}.
     */
    public Vertx vertx() {
        for (Scope s : scopes) if (s.vertx != null) return s.vertx;
        Scope s = current();
        s.vertx = newVertx();
        return s.vertx;
    }

    /** A Vert.x of its own (its own event bus), closed at the end of the current scope. */
    public Vertx newVertx() {
        Vertx v = TestNodes.newVertx();
        closeAfter(() -> TestNodes.await(v.close()));
        return v;
    }

    /** The project's configuration for tests ({@link TestConfig#defaults()}): each call on a new, empty database. */
    public TestConfig config() {
        return TestConfig.defaults();
    }

    /** A node with these roles on a fresh database, on {@link #vertx()}. */
    public WeftNode start(String... roles) {
        return start(config().roles(roles));
    }

    /** A node on {@link #vertx()}, stopped at the end of the current scope (or by {@link #stop}). */
    public WeftNode start(TestConfig config) {
        return start(vertx(), config);
    }

    /** A node on the given Vert.x, stopped at the end of the current scope (or by {@link #stop}). */
    public WeftNode start(Vertx vertx, TestConfig config) {
        Scope scope = current();
        WeftNode node = TestNodes.start(vertx, config.build());
        scope.closing.push(new Stopping(node));
        return node;
    }

    /** Stops a node now (a test that restarts one): the end of its scope no longer stops it. */
    public void stop(WeftNode node) {
        for (Scope s : scopes) s.closing.removeIf(c -> c instanceof Stopping st && st.node == node);
        TestNodes.await(node.stop());
    }

    /** The configuration's database, migrated, on {@link #vertx()}; closed at the end of the current scope. */
    public Database database(TestConfig config) {
        Scope scope = current();
        Database db = TestNodes.await(Database.start(vertx(), config.build().database()));
        scope.closing.push(() -> TestNodes.await(db.close()));
        return db;
    }

    /** Runs {@code cleanup} at the end of the current scope, after everything asked for later is closed. */
    public void closeAfter(AutoCloseable cleanup) {
        current().closing.push(cleanup);
    }

    private record Stopping(WeftNode node) implements AutoCloseable {
        @Override
        public void close() {
            TestNodes.await(node.stop());
        }
    }
}
