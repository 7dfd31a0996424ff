package dev.weft.webhook;

import dev.weft.bus.BusError;
import dev.weft.config.Cidr;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Where a webhook may point. A URL is refused unless it is http(s) with a host and no credentials; its host is resolved
 * here (on a worker thread) and refused when any address it has is internal: loopback, private (RFC 1918, fc00::/7),
 * link-local (169.254/16 with the cloud metadata address, fe80::/10), unspecified, multicast, CGNAT (RFC 6598) or
 * otherwise reserved, IPv4 embedded in IPv6 (mapped, NAT64, 6to4) included. The caller then connects to the address
 * checked here, never to a second lookup of the name, so a name that changes its answer (DNS rebinding) cannot aim a
 * delivery inside. {@code allowPrivate} (tests, closed networks) skips the address check, never the URL check.
 */
final class TargetGuard {
    static final int MAX_URL = 2048;

    /** An address a delivery may connect to, with the URL's parts the request needs. */
    record Target(URI uri, String host, int port, boolean ssl, String pathAndQuery, InetAddress address) {}

    private record Block(Cidr cidr, String what) {}

    private static final List<Block> V4 = List.of(
            block("0.0.0.0/8", "unspecified"),
            block("10.0.0.0/8", "private (RFC 1918)"),
            block("100.64.0.0/10", "shared CGNAT (RFC 6598)"),
            block("127.0.0.0/8", "loopback"),
            block("169.254.0.0/16", "link-local (cloud metadata included)"),
            block("172.16.0.0/12", "private (RFC 1918)"),
            block("192.0.0.0/24", "IETF protocol assignments"),
            block("192.168.0.0/16", "private (RFC 1918)"),
            block("198.18.0.0/15", "benchmarking"),
            block("224.0.0.0/4", "multicast"),
            block("240.0.0.0/4", "reserved or broadcast"));
    private static final List<Block> V6 = List.of(
            block("::/128", "unspecified"),
            block("::1/128", "loopback"),
            block("fc00::/7", "private (unique local, fc00::/7)"),
            block("fe80::/10", "link-local"),
            block("fec0::/10", "site-local"),
            block("ff00::/8", "multicast"));

    private final Vertx vertx;
    private final boolean allowPrivate;

    TargetGuard(Vertx vertx, boolean allowPrivate) {
        this.vertx = vertx;
        this.allowPrivate = allowPrivate;
    }

    private static Block block(String cidr, String what) {
        return new Block(Cidr.parse(cidr), what);
    }

    /** The URL's own checks (no lookup): a 400 naming what is wrong. */
    static URI parse(String url) {
        if (url.length() > MAX_URL) throw BusError.badRequest("url is longer than " + MAX_URL + " characters");
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw BusError.badRequest("url is not a valid URL: " + e.getReason());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) throw BusError.badRequest("url must be http or https");
        if (uri.getRawUserInfo() != null) throw BusError.badRequest("url must not carry credentials (user:password@)");
        if (uri.getHost() == null || uri.getHost().isEmpty()) throw BusError.badRequest("url must name a host");
        if (uri.getRawFragment() != null) throw BusError.badRequest("url must not have a fragment");
        return uri;
    }

    /** Why an address is refused, or null when a delivery may go there. */
    static String refusal(InetAddress a) {
        byte[] b = a.getAddress();
        if (b.length == 4) return refusalV4(b);
        for (Block k : V6) if (k.cidr().contains(b)) return k.what();
        byte[] embedded = embeddedV4(b);
        return embedded == null ? null : refusalV4(embedded);
    }

    private static String refusalV4(byte[] b) {
        for (Block k : V4) if (k.cidr().contains(b)) return k.what();
        return null;
    }

    /** The IPv4 address an IPv6 one carries: mapped (::ffff:0:0/96), compatible (::/96), NAT64 (64:ff9b::/96), 6to4. */
    private static byte[] embeddedV4(byte[] b) {
        boolean zero80 = true;
        for (int i = 0; i < 10; i++) zero80 &= b[i] == 0;
        if (zero80 && ((b[10] == (byte) 0xff && b[11] == (byte) 0xff) || (b[10] == 0 && b[11] == 0)))
            return Arrays.copyOfRange(b, 12, 16);
        boolean nat64 = b[0] == 0 && b[1] == 0x64 && b[2] == (byte) 0xff && b[3] == (byte) 0x9b;
        for (int i = 4; i < 12; i++) nat64 &= b[i] == 0;
        if (nat64) return Arrays.copyOfRange(b, 12, 16);
        if (b[0] == 0x20 && b[1] == 0x02) return Arrays.copyOfRange(b, 2, 6);
        return null;
    }

    /**
     * The URL checked, its host resolved and every address checked: the target to connect to, or a failed future
     * whose {@link BusError} (400) says why not. A name that does not resolve is a 400 too.
     */
    Future<Target> resolve(String url) {
        URI uri;
        try {
            uri = parse(url);
        } catch (BusError e) {
            return Future.failedFuture(e);
        }
        String host = uri.getHost();
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        boolean ssl = uri.getScheme().equalsIgnoreCase("https");
        int port = uri.getPort() > 0 ? uri.getPort() : ssl ? 443 : 80;
        String path = (uri.getRawPath() == null || uri.getRawPath().isEmpty()) ? "/" : uri.getRawPath();
        String pathAndQuery = uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
        return vertx.<InetAddress>executeBlocking(
                        () -> {
                            InetAddress[] all;
                            try {
                                all = InetAddress.getAllByName(bare);
                            } catch (UnknownHostException e) {
                                throw new BusError(400, "url host " + bare + " does not resolve");
                            }
                            if (!allowPrivate) {
                                for (InetAddress a : all) {
                                    String why = refusal(a);
                                    if (why != null)
                                        throw new BusError(
                                                400,
                                                "url host " + bare + " resolves to " + a.getHostAddress() + ", a " + why
                                                        + " address: webhooks may not target internal addresses"
                                                        + " (webhooks.allow_private_targets)");
                                }
                            }
                            return all[0];
                        },
                        false)
                .map(a -> new Target(uri, bare, port, ssl, pathAndQuery, a));
    }

    /** The address as a connect string (IPv6 without brackets, as Vert.x's socket addresses take it). */
    static String literal(InetAddress a) {
        String s = a.getHostAddress();
        if (a instanceof Inet6Address) {
            int pct = s.indexOf('%');
            return pct < 0 ? s : s.substring(0, pct);
        }
        return s;
    }
}
