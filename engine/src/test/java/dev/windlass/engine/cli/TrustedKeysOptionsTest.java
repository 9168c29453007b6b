package dev.windlass.engine.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** windlass run refuses, before it reaches anything, a check it cannot make and a key file that is not a key. */
class TrustedKeysOptionsTest {
    @TempDir Path dir;

    static int run(StringWriter err, String... args) {
        return Main.run(new PrintWriter(new StringWriter(), true), new PrintWriter(err, true), args);
    }

    @Test void requiringSignedCommitsNeedsTheKeys() {
        StringWriter err = new StringWriter();
        int code = run(err, "run", "--repo", dir.resolve("none.git").toString(), "--verify-commits", "Tip");
        assertEquals(2, code, err.toString());
        assertTrue(err.toString().contains("--verify-commits Tip needs --trusted-keys DIR or --trusted-keys-secret NAME: the keys whose signatures are trusted"), err.toString());
    }

    @Test void aModeThatDoesNotExistIsRefusedWithTheWords() {
        StringWriter err = new StringWriter();
        int code = run(err, "run", "--repo", dir.resolve("none.git").toString(), "--verify-commits", "Always");
        assertEquals(2, code, err.toString());
        assertTrue(err.toString().contains("Off, Tip, AllSince"), err.toString());
    }

    @Test void aKeyFileThatIsNotAKeyStopsTheEngineNamingIt() throws Exception {
        Path keys = Files.createDirectories(dir.resolve("keys"));
        Files.writeString(keys.resolve("ops.asc"), "not a key\n");
        StringWriter err = new StringWriter();
        int code = run(err, "run", "--repo", dir.resolve("none.git").toString(), "--trusted-keys", keys.toString(), "--verify-commits", "Tip");
        assertTrue(code != 0, "exit code " + code);
        assertTrue(err.toString().contains("ops.asc: holds no OpenPGP public key; export one with gpg --armor --export KEYID"), err.toString());
    }
}
