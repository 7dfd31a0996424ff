package dev.weft.api;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class CorsOriginsTest {
    @Test
    void anOriginMatchesItselfWithItsSchemeAndPortHostCaseAside() {
        CorsOrigins o = CorsOrigins.of(List.of("https://app.example.com", "http://localhost:3000"));
        assertTrue(o.allows("https://app.example.com"));
        assertTrue(o.allows("https://APP.example.com"));
        assertTrue(o.allows("http://localhost:3000"));
        assertFalse(o.allows("http://app.example.com"), "another scheme");
        assertFalse(o.allows("https://app.example.com:8443"), "another port");
        assertFalse(o.allows("http://localhost:3001"));
        assertFalse(o.allows("https://app.example.com.evil.io"));
        assertFalse(o.allows("https://appxexample.com"), "the dot is not a wildcard");
        assertFalse(o.allows(null));
    }

    @Test
    void aSubdomainWildcardMatchesEverySubdomainButNotTheDomainItself() {
        CorsOrigins o = CorsOrigins.of(List.of("https://*.example.com"));
        assertTrue(o.allows("https://app.example.com"));
        assertTrue(o.allows("https://a.b.example.com"));
        assertFalse(o.allows("https://example.com"));
        assertFalse(o.allows("http://app.example.com"), "the entry's scheme only");
        assertFalse(o.allows("https://app.evil-example.com"));
        assertFalse(o.allows("https://example.com.evil.io"));
        assertFalse(o.allows("https://app.example.com:8443"));
        CorsOrigins bare = CorsOrigins.of(List.of("*.example.com"));
        assertTrue(bare.allows("https://app.example.com"));
        assertTrue(bare.allows("http://app.example.com"), "without a scheme: http or https");
        assertFalse(bare.allows("ftp://app.example.com"));
        assertFalse(bare.allows("https://example.com"));
    }

    @Test
    void aStarAllowsEveryOriginAndNoEntryNone() {
        assertTrue(CorsOrigins.of(List.of("*")).allows("https://anything.example"));
        assertTrue(CorsOrigins.of(List.of("https://a.example", "*")).allows("https://b.example"));
        assertTrue(CorsOrigins.of(List.of()).isEmpty());
        assertFalse(CorsOrigins.of(List.of()).allows("https://a.example"));
    }
}
