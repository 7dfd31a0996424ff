package dev.weft.api;

import dev.weft.config.Cidr;
import io.vertx.core.http.HttpServerRequest;
import java.net.InetAddress;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Who a request comes from, for per-client limits: the peer address, or, when the peer is a trusted proxy, the
 * right-most {@code X-Forwarded-For} entry that is not itself a trusted proxy (entries further left are written by the
 * client and prove nothing). IPv6 clients are keyed by their /64, the block one subscriber usually gets.
 */
final class ClientAddress {
    private final List<Cidr> trusted;

    ClientAddress(List<String> trustedProxies) {
        this.trusted = trustedProxies.stream().map(Cidr::parse).toList();
    }

    String of(HttpServerRequest req) {
        String peer =
                req.remoteAddress() == null ? "unknown" : req.remoteAddress().hostAddress();
        if (!isTrustedProxy(peer)) return key(peer);
        String forwarded = req.getHeader("x-forwarded-for");
        if (forwarded == null) return key(peer);
        String[] hops = forwarded.split(",");
        for (int i = hops.length - 1; i >= 0; i--) {
            String hop = hops[i].trim();
            if (bytes(hop) == null) return key(peer); // garbage in the header: do not let it pick a bucket
            if (!isTrustedProxy(hop)) return key(hop);
        }
        return key(peer);
    }

    boolean isTrustedProxy(String address) {
        if (trusted.isEmpty()) return false;
        byte[] b = bytes(address);
        return b != null && trusted.stream().anyMatch(c -> c.contains(b));
    }

    static String key(String address) {
        byte[] b = bytes(address);
        if (b == null || b.length == 4) return address;
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < 8; i += 2) s.append(String.format("%02x%02x:", b[i], b[i + 1]));
        return s.append(":/64").toString();
    }

    /** Compiled once: every request's client address is checked ({@code String.matches} compiles per call). */
    private static final Pattern ADDRESS_CHARS = Pattern.compile("[0-9a-fA-F:.]+");

    /** The bytes of a literal IPv4/IPv6 address, or null (never a name lookup). */
    static byte[] bytes(String address) {
        if (address == null
                || address.isEmpty()
                || !ADDRESS_CHARS.matcher(address).matches()
                || address.length() > 45) return null;
        try {
            return InetAddress.getByName(address).getAddress();
        } catch (java.net.UnknownHostException e) {
            return null;
        }
    }
}
