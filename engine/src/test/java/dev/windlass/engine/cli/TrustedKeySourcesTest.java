package dev.windlass.engine.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A directory's keys and a Secret's are gathered into one directory; a Secret entry that is not a key is refused by name. */
class TrustedKeySourcesTest {
    @TempDir Path dir;

    @Test void bothAllowedSignersAreKeptOneAfterTheOther() throws Exception {
        Path keys = Files.createDirectories(dir.resolve("keys"));
        Files.writeString(keys.resolve("allowed_signers"), "a@example.com ssh-ed25519 AAAA-a");
        Path scratch = Files.createDirectories(dir.resolve("scratch"));
        var trusted = TrustedKeySources.load(keys, Map.of("allowed_signers", "b@example.com ssh-ed25519 AAAA-b\n".getBytes(StandardCharsets.UTF_8)),
                "ns/keys", scratch);
        assertEquals("a@example.com ssh-ed25519 AAAA-a\nb@example.com ssh-ed25519 AAAA-b\n", Files.readString(scratch.resolve("allowed_signers")));
        assertTrue(trusted.describe().endsWith("(0 OpenPGP keys, allowed_signers)"), trusted.describe());
    }

    @Test void aSecretEntryThatIsNotAKeyIsRefusedByName() throws Exception {
        Path scratch = Files.createDirectories(dir.resolve("scratch"));
        IOException e = assertThrows(IOException.class,
                () -> TrustedKeySources.load(null, Map.of("token", "x".getBytes(StandardCharsets.UTF_8)), "ns/keys", scratch));
        assertEquals("Secret ns/keys: key 'token' is neither an OpenPGP public key (*.asc) nor allowed_signers; remove it or rename it", e.getMessage());
    }
}
