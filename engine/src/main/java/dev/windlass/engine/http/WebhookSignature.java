package dev.windlass.engine.http;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Verifies a push payload's HMAC-SHA256: {@code X-Hub-Signature-256: sha256=<hex>} (GitHub style) or
 * {@code X-Gitea-Signature: <hex>} (Gitea style). Compared in constant time.
 */
public final class WebhookSignature {
    private WebhookSignature() {}

    public static String sign(String secret, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(body));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @param header the signature header's value, with or without the {@code sha256=} prefix */
    public static boolean verify(String secret, byte[] body, String header) {
        if (header == null) return false;
        String given = header.startsWith("sha256=") ? header.substring(7) : header;
        return MessageDigest.isEqual(sign(secret, body).getBytes(StandardCharsets.US_ASCII),
                given.trim().toLowerCase().getBytes(StandardCharsets.US_ASCII));
    }
}
