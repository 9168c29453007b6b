package dev.windlass.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real sops, in the render sandbox, decrypting files the real sops encrypted for keys the real age-keygen and gpg
 * made: what it decrypts, and what it says (never the plaintext) when it cannot.
 */
class SopsDecryptorTest {
    private static final String PASSWORD = "correct-horse-battery-staple-7731";
    private static final String SECRET = """
            apiVersion: v1
            kind: Secret
            metadata:
              name: db
            stringData:
              password: %s
            """.formatted(PASSWORD);

    @TempDir static Path dir;
    static SopsKeyMaker maker;
    static SopsKeyMaker.AgeKey age;
    static SopsKeyMaker.AgeKey otherAge;
    static SopsKeyMaker.PgpKey pgp;
    static SopsDecryptor decryptor;
    static String forAge;

    @BeforeAll
    static void keys() throws Exception {
        maker = new SopsKeyMaker(dir);
        age = maker.age("team");
        otherAge = maker.age("other");
        pgp = maker.pgp("ops");
        decryptor = new SopsDecryptor(RenderTools.fromEnvironment(), new RenderLimits(2, Duration.ofSeconds(30), 1024 * 1024),
                RenderSandbox.Mode.REQUIRED);
        forAge = maker.encrypt(SECRET, "yaml", age.recipient());
    }

    @AfterAll
    static void stop() throws Exception {
        maker.close();
    }

    private static DecryptionKeys keysIn(Path... files) throws Exception {
        Path d = Files.createTempDirectory(dir, "keys");
        for (Path f : files) Files.copy(f, d.resolve(f.getFileName()));
        return DecryptionKeys.fromDirectory(d);
    }

    @Test
    void anAgeEncryptedSecretDecryptsWithItsKey() throws Exception {
        assertFalse(forAge.contains(PASSWORD), forAge);
        SopsDecryptor.Result r = decryptor.decrypt(forAge.getBytes(StandardCharsets.UTF_8), SopsDecryptor.Format.YAML, keysIn(age.file()));
        String plain = new String(assertInstanceOf(SopsDecryptor.Result.Decrypted.class, r).plain(), StandardCharsets.UTF_8);
        assertTrue(plain.contains("password: " + PASSWORD), plain);
        assertFalse(plain.contains("sops:"), plain);
    }

    @Test
    void anOpenPgpEncryptedSecretDecryptsWithTheExportedSecretKey() throws Exception {
        String forPgp = maker.encrypt(SECRET, "yaml", pgp.fingerprint());
        SopsDecryptor.Result r = decryptor.decrypt(forPgp.getBytes(StandardCharsets.UTF_8), SopsDecryptor.Format.YAML, keysIn(pgp.file()));
        String plain = new String(assertInstanceOf(SopsDecryptor.Result.Decrypted.class, r).plain(), StandardCharsets.UTF_8);
        assertTrue(plain.contains("password: " + PASSWORD), plain);
    }

    @Test
    void aFileForSeveralRecipientsDecryptsWithAnyOneOfThemAndTheKeysOfADirectoryCombine() throws Exception {
        String forBoth = maker.encrypt(SECRET, "yaml", age.recipient(), pgp.fingerprint());
        for (DecryptionKeys keys : new DecryptionKeys[] {keysIn(pgp.file()), keysIn(age.file()), keysIn(otherAge.file(), pgp.file())}) {
            SopsDecryptor.Result r = decryptor.decrypt(forBoth.getBytes(StandardCharsets.UTF_8), SopsDecryptor.Format.YAML, keys);
            assertTrue(new String(assertInstanceOf(SopsDecryptor.Result.Decrypted.class, r).plain(), StandardCharsets.UTF_8).contains(PASSWORD),
                    keys.toString());
        }
    }

    @Test
    void jsonAndDotenvFilesDecryptToo() throws Exception {
        String json = maker.encrypt("{\"apiVersion\": \"v1\", \"kind\": \"Secret\", \"metadata\": {\"name\": \"j\"}, \"stringData\": {\"k\": \""
                + PASSWORD + "\"}}", "json", age.recipient());
        SopsDecryptor.Result r = decryptor.decrypt(json.getBytes(StandardCharsets.UTF_8), SopsDecryptor.Format.JSON, keysIn(age.file()));
        assertTrue(new String(assertInstanceOf(SopsDecryptor.Result.Decrypted.class, r).plain(), StandardCharsets.UTF_8).contains(PASSWORD));
        String env = maker.encrypt("PASSWORD=" + PASSWORD + "\n", "dotenv", age.recipient());
        assertFalse(env.contains(PASSWORD));
        r = decryptor.decrypt(env.getBytes(StandardCharsets.UTF_8), SopsDecryptor.Format.DOTENV, keysIn(age.file()));
        assertEquals("PASSWORD=" + PASSWORD + "\n", new String(assertInstanceOf(SopsDecryptor.Result.Decrypted.class, r).plain(), StandardCharsets.UTF_8));
    }

    @Test
    void aWrongKeyNamesTheRecipientsNeverThePlaintext() throws Exception {
        SopsDecryptor.Result r = decryptor.decrypt(forAge.getBytes(StandardCharsets.UTF_8), SopsDecryptor.Format.YAML, keysIn(otherAge.file()));
        SopsDecryptor.Result.Failed f = assertInstanceOf(SopsDecryptor.Result.Failed.class, r);
        assertEquals(SopsDecryptor.Problem.NO_MATCHING_KEY, f.problem());
        assertTrue(f.message().contains(age.recipient()), f.message());
        assertNoPlaintext(f.message());
    }

    @Test
    void noKeyAtAllSaysHowToGiveOne() {
        SopsDecryptor.Result r = decryptor.decrypt(forAge.getBytes(StandardCharsets.UTF_8), SopsDecryptor.Format.YAML, DecryptionKeys.NONE);
        SopsDecryptor.Result.Failed f = assertInstanceOf(SopsDecryptor.Result.Failed.class, r);
        assertEquals(SopsDecryptor.Problem.NO_KEYS, f.problem());
        assertTrue(f.message().contains("--decryption-keys"), f.message());
    }

    @Test
    void aTamperedValueOrMacIsSaidSoWithoutWhatSopsComputed() throws Exception {
        DecryptionKeys keys = keysIn(age.file());
        // One character of the encrypted value changed: its authentication tag fails.
        int at = forAge.indexOf("ENC[AES256_GCM,data:") + "ENC[AES256_GCM,data:".length();
        String value = forAge.substring(0, at) + (forAge.charAt(at) == 'A' ? 'B' : 'A') + forAge.substring(at + 1);
        SopsDecryptor.Result.Failed f = assertInstanceOf(SopsDecryptor.Result.Failed.class,
                decryptor.decrypt(value.getBytes(StandardCharsets.UTF_8), SopsDecryptor.Format.YAML, keys));
        assertEquals(SopsDecryptor.Problem.TAMPERED, f.problem());
        // A plain field the MAC covers changed: the MAC no longer matches.
        String renamed = forAge.replace("name: db", "name: db2");
        f = assertInstanceOf(SopsDecryptor.Result.Failed.class, decryptor.decrypt(renamed.getBytes(StandardCharsets.UTF_8), SopsDecryptor.Format.YAML, keys));
        assertEquals(SopsDecryptor.Problem.TAMPERED, f.problem());
        assertTrue(f.message().contains("MAC"), f.message());
        assertFalse(f.message().matches("(?s).*[0-9A-F]{32}.*"), "no digest: " + f.message());
        assertNoPlaintext(f.message());
    }

    @Test
    void aFileSopsDidNotEncryptIsSaidSo() throws Exception {
        SopsDecryptor.Result.Failed f = assertInstanceOf(SopsDecryptor.Result.Failed.class,
                decryptor.decrypt(SECRET.getBytes(StandardCharsets.UTF_8), SopsDecryptor.Format.YAML, keysIn(age.file())));
        assertEquals(SopsDecryptor.Problem.NOT_ENCRYPTED, f.problem(), f.message());
    }

    @Test
    void theSameFileAndKeysAreDecryptedOnce() throws Exception {
        DecryptionKeys keys = keysIn(age.file());
        decryptor.decrypt(forAge.getBytes(StandardCharsets.UTF_8), SopsDecryptor.Format.YAML, keys);
        long runs = decryptor.toolRuns();
        decryptor.decrypt(forAge.getBytes(StandardCharsets.UTF_8), SopsDecryptor.Format.YAML, keys);
        assertEquals(runs, decryptor.toolRuns());
    }

    private static void assertNoPlaintext(String said) {
        byte[] p = PASSWORD.getBytes(StandardCharsets.UTF_8);
        for (String form : new String[] {PASSWORD, Base64.getEncoder().encodeToString(p), HexFormat.of().formatHex(p)}) {
            assertFalse(said.contains(form), said);
        }
    }
}
