package dev.weft.config;

import java.util.List;
import java.util.Set;

/** Which roles this node runs and what it calls itself in logs and the cluster view. */
public record NodeConfig(Set<Role> roles, String name) {
    static NodeConfig from(ConfigSource c) {
        Set<Role> roles = Role.parse("node.roles", c.stringList("node.roles", List.of("all")));
        String name = c.string("node.name", "weft-" + ProcessHandle.current().pid());
        return new NodeConfig(roles, name);
    }

    public boolean runs(Role role) {
        return roles.contains(role);
    }
}
