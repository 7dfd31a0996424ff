package dev.weft.runtime;

import dev.weft.config.ConfigSource;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * A role that does not ship with the product, found on the class path with {@link ServiceLoader} (a
 * {@code META-INF/services/dev.weft.runtime.RolePlugin} entry) and named in {@code node.roles} like a built-in role
 * ({@code all} includes every plugin found). The local devnet is one. The node deploys a plugin's verticle before any
 * built-in role; once it has started, whatever it {@linkplain Started#configuration() supplies} fills the
 * configuration keys the operator left empty, so the roles after it read those values as ordinary configuration.
 */
public interface RolePlugin {

    /** The role's name in {@code node.roles}. */
    String role();

    /** Checks the plugin's own configuration keys at start-up, throwing a ConfigException that names the bad key. */
    void check(ConfigSource config);

    /** The verticle that runs the role on this node. */
    Started create(NodeContext ctx);

    /** A plugin's verticle: what it tells the node once its start has completed. */
    interface Started extends io.vertx.core.Deployable {
        /** Dotted configuration keys and their values (lists comma-separated) for the keys the operator left empty. */
        Map<String, String> configuration();

        /** Lines for the node's start banner ("where to look"). */
        List<String> banner();
    }

    /** Every plugin on the class path, by role name. */
    static Map<String, RolePlugin> installed() {
        Map<String, RolePlugin> out = new java.util.TreeMap<>();
        for (RolePlugin p : ServiceLoader.load(RolePlugin.class)) out.put(p.role(), p);
        return out;
    }
}
