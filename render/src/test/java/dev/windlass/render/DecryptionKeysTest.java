package dev.windlass.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Keys read from a directory as age-keygen and gpg write them, and the marker they key. */
class DecryptionKeysTest {
    @TempDir Path dir;

    @Test
    void readsAgeAndOpenPgpKeysAndLeavesOtherFilesAlone() throws Exception {
        try (SopsKeyMaker maker = new SopsKeyMaker(dir)) {
            SopsKeyMaker.AgeKey age = maker.age("team");
            SopsKeyMaker.PgpKey pgp = maker.pgp("ops");
            Path keys = Files.createDirectory(dir.resolve("keys"));
            Files.copy(age.file(), keys.resolve("team.agekey"));
            Files.copy(pgp.file(), keys.resolve("ops.asc"));
            Files.writeString(keys.resolve("README"), "not a key");
            DecryptionKeys read = DecryptionKeys.fromDirectory(keys);
            assertEquals(1, read.ageCount());
            assertEquals(1, read.pgpCount());
            assertTrue(read.ageKeyEnv().startsWith("AGE-SECRET-KEY-1"));
            // The armor is taken off: a binary OpenPGP secret key packet (tag 5, new or old format) comes first.
            byte first = read.pgpSecretRing()[0];
            assertTrue(first == (byte) 0xC5 || (first & 0xFC) == 0x94, "first byte " + first);
            assertEquals("1 age and 1 OpenPGP key(s)", read.toString());
            assertFalse(read.toString().contains("AGE-SECRET"));
        }
    }

    @Test
    void aKeyFileWithoutAKeyIsNamedAndItsContentIsNot() throws Exception {
        Files.writeString(dir.resolve("team.agekey"), "# created: never\nsecret-looking-text\n");
        DecryptionKeys.KeyProblem p = assertThrows(DecryptionKeys.KeyProblem.class, () -> DecryptionKeys.fromDirectory(dir));
        assertTrue(p.getMessage().startsWith("team.agekey in " + dir + " holds no age identity"), p.getMessage());
        assertFalse(p.getMessage().contains("secret-looking-text"));
        Files.delete(dir.resolve("team.agekey"));
        Files.writeString(dir.resolve("ops.asc"), "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQ==\n-----END PGP PUBLIC KEY BLOCK-----\n");
        p = assertThrows(DecryptionKeys.KeyProblem.class, () -> DecryptionKeys.fromDirectory(dir));
        assertTrue(p.getMessage().contains("ops.asc") && p.getMessage().contains("--export-secret-keys"), p.getMessage());
        assertThrows(DecryptionKeys.KeyProblem.class, () -> DecryptionKeys.fromDirectory(dir.resolve("absent")));
    }

    @Test
    void theMarkerIsKeyedChangesWithTheValueAndIsNoPlainHash() throws Exception {
        DecryptionKeys a = DecryptionKeys.fromEntries(Map.of("a.agekey", ageLine('a')), "in test");
        DecryptionKeys b = DecryptionKeys.fromEntries(Map.of("b.agekey", ageLine('b')), "in test");
        byte[] value = "hunter2".getBytes(StandardCharsets.UTF_8);
        String marker = a.marker(value);
        assertTrue(marker.matches("sops:hmac-sha256:[0-9a-f]{12}"), marker);
        assertEquals(marker, DecryptionKeys.fromEntries(Map.of("again.agekey", ageLine('a')), "in test").marker(value), "same keys, same marker");
        assertNotEquals(marker, a.marker("hunter3".getBytes(StandardCharsets.UTF_8)), "another value, another marker");
        assertNotEquals(marker, b.marker(value), "other keys, another marker");
        String plainHash = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(value));
        assertFalse(plainHash.startsWith(marker.substring("sops:hmac-sha256:".length())), "not SHA-256 of the value");
    }

    private static byte[] ageLine(char fill) {
        return ("# public key: age1...\nAGE-SECRET-KEY-1" + String.valueOf(fill).repeat(58).toUpperCase() + "\n").getBytes(StandardCharsets.UTF_8);
    }
}
