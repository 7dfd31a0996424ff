package dev.weft.config;

import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which roles this node runs and what it calls itself in logs and the cluster view. {@code roles} are the product's;
 * {@code plugins} the other names given (roles of plugins found on the class path, checked when the node starts), and
 * {@code all} whether {@code all} was given, which also runs every plugin found.
 */
public record NodeConfig(Set<Role> roles, Set<String> plugins, boolean all, String name) {
    static NodeConfig from(ConfigSource c) {
        EnumSet<Role> roles = EnumSet.noneOf(Role.class);
        Set<String> plugins = new java.util.TreeSet<>();
        boolean all = false;
        for (String n : c.stringList("node.roles", List.of("all"))) {
            String s = n.trim().toLowerCase(Locale.ROOT);
            if (s.isEmpty()) continue;
            if (s.equals("all")) {
                all = true;
                roles.addAll(Role.all());
            } else if (Role.named(s) != null) {
                roles.add(Role.named(s));
            } else if (s.matches("[a-z][a-z0-9_-]{0,31}")) {
                plugins.add(s);
            } else {
                throw new ConfigException("node.roles", "unknown role \"" + n.trim() + "\"");
            }
        }
        if (roles.isEmpty() && plugins.isEmpty() && !all) throw new ConfigException("node.roles", "names no role");
        String name = c.string("node.name", "weft-" + ProcessHandle.current().pid());
        return new NodeConfig(Set.copyOf(roles), Set.copyOf(plugins), all, name);
    }

    public boolean runs(Role role) {
        return roles.contains(role);
    }

    /** Whether this node runs the plugin role {@code name} (named, or through {@code all}). */
    public boolean runsPlugin(String name) {
        return all || plugins.contains(name);
    }

    /** The role names as configured: the product's, then the plugins'. */
    public List<String> names() {
        List<String> out = new java.util.ArrayList<>();
        for (Role r : Role.values()) if (roles.contains(r)) out.add(r.id());
        out.addAll(plugins);
        return out;
    }
}
