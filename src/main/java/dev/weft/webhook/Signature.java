package dev.weft.webhook;

import dev.weft.chain.Hex;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The {@code Weft-Signature} header: {@code t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">} keyed by the
 * webhook's secret (HMAC: RFC 2104). The timestamp is signed with the body so a receiver can refuse old replays; the
 * scheme's shape is the timestamped one common to webhook senders (a version tag leaves room for another algorithm).
 */
public final class Signature {
    public static final String HEADER = "Weft-Signature";

    private Signature() {}

    public static String header(String secret, long unixSeconds, byte[] body) {
        return "t=" + unixSeconds + ",v1=" + hmac(secret, unixSeconds, body);
    }

    /** The lowercase hex HMAC-SHA256 of {@code "<t>.<body>"}. */
    public static String hmac(String secret, long unixSeconds, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update((unixSeconds + ".").getBytes(StandardCharsets.US_ASCII));
            return Hex.lower(mac.doFinal(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JRE", e);
        }
    }
}
