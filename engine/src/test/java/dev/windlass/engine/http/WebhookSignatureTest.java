package dev.windlass.engine.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class WebhookSignatureTest {
    // The worked example Git hosts publish for validating push webhook deliveries.
    static final String SECRET = "It's a Secret to Everybody";
    static final byte[] BODY = "Hello, World!".getBytes(StandardCharsets.UTF_8);
    static final String HEX = "757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";

    @Test
    void matchesThePublishedExample() {
        assertEquals(HEX, WebhookSignature.sign(SECRET, BODY));
    }

    @Test
    void acceptsBothHeaderStylesAndRejectsTampering() {
        assertTrue(WebhookSignature.verify(SECRET, BODY, "sha256=" + HEX));
        assertTrue(WebhookSignature.verify(SECRET, BODY, HEX));
        assertFalse(WebhookSignature.verify(SECRET, "Hello, World?".getBytes(StandardCharsets.UTF_8), "sha256=" + HEX));
        assertFalse(WebhookSignature.verify("other", BODY, "sha256=" + HEX));
        assertFalse(WebhookSignature.verify(SECRET, BODY, null));
    }
}
