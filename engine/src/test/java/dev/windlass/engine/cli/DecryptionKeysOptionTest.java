package dev.windlass.engine.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.render.AppDecryption;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code windlass run --decryption-keys DIR}: a directory that holds no readable key stops the engine at its start, naming the file only. */
class DecryptionKeysOptionTest {
    @TempDir Path dir;

    @AfterEach
    void clear() { System.clearProperty(AppDecryption.KEYS_PROPERTY); }

    private String run(Path keys, StringWriter out) {
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), "run", "--repo", dir.resolve("no-repo").toString(),
                "--workdir", dir.resolve("work").toString(), "--decryption-keys", keys.toString());
        assertEquals(2, code, out + "\n" + err);
        return err.toString();
    }

    @Test
    void aKeyFileWithoutAKeyIsRefusedBeforeAnythingStarts() throws Exception {
        Path keys = Files.createDirectory(dir.resolve("keys"));
        Files.writeString(keys.resolve("team.agekey"), "not-a-key-but-maybe-secret\n");
        String said = run(keys, new StringWriter());
        assertTrue(said.contains("--decryption-keys: team.agekey in " + keys + " holds no age identity"), said);
        assertFalse(said.contains("not-a-key-but-maybe-secret"), said);
    }

    @Test
    void aDirectoryThatIsNotThereIsRefused() {
        String said = run(dir.resolve("absent"), new StringWriter());
        assertTrue(said.contains("--decryption-keys: the decryption key directory " + dir.resolve("absent") + " is not a directory"), said);
    }
}
