package dev.windlass.policy.diff;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Content hashes over canonical JSON (keys sorted), so two objects that mean the same have the same
 * hash whatever the key order or formatting of their YAML.
 */
public final class ContentHash {
    private static final ObjectMapper CANONICAL = new ObjectMapper()
            .configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

    private ContentHash() {}

    /** Canonical compact JSON of a plain value tree. */
    public static String canonicalJson(Object value) {
        try {
            return CANONICAL.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a plain value tree", e);
        }
    }

    /** 16 hex characters of SHA-256 over the canonical JSON. */
    public static String of(Object value) {
        return sha256(canonicalJson(value)).substring(0, 16);
    }

    public static String sha256(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
