package dev.weft.config;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** An IPv4 or IPv6 address block such as {@code 10.0.0.0/8} or {@code ::1/128} (a bare address is a /32 or /128). */
public record Cidr(byte[] network, int prefix) {

    public static Cidr parse(String s) {
        String text = s.trim();
        int slash = text.indexOf('/');
        String addr = slash < 0 ? text : text.substring(0, slash);
        if (!addr.matches("[0-9a-fA-F:.]+"))
            throw new IllegalArgumentException("not an IP address block: \"" + s + "\"");
        byte[] bytes;
        try {
            bytes = InetAddress.getByName(addr).getAddress(); // a literal: no name lookup happens for digits and colons
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IP address block: \"" + s + "\"");
        }
        int prefix;
        try {
            prefix = slash < 0 ? bytes.length * 8 : Integer.parseInt(text.substring(slash + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad prefix length in \"" + s + "\"");
        }
        if (prefix < 0 || prefix > bytes.length * 8)
            throw new IllegalArgumentException("bad prefix length in \"" + s + "\"");
        return new Cidr(bytes, prefix);
    }

    public boolean contains(byte[] address) {
        if (address == null || address.length != network.length) return false;
        int full = prefix / 8;
        for (int i = 0; i < full; i++) if (address[i] != network[i]) return false;
        int rest = prefix % 8;
        if (rest == 0) return true;
        int mask = 0xff << (8 - rest) & 0xff;
        return (address[full] & mask) == (network[full] & mask);
    }
}
