package dev.windlass.engine;

import dev.windlass.render.SopsKeyMaker;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.render.AppDecryption;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.parse.RepoParser;
import dev.windlass.policy.source.MapSnapshot;
import dev.windlass.render.DecryptionKeys;
import dev.windlass.render.SopsDecryptor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a pass sends for a manifest the real sops encrypted, and what the commands without keys show of it: the same
 * object, the same ciphertext annotation, the decrypted values only in the first.
 */
class AppDecryptionTest {
    private static final String SECRET = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\n  labels: {tier: data}\nstringData:\n  password: s3cr3t-value-42\n";

    @TempDir static Path dir;
    static SopsKeyMaker maker;
    static SopsKeyMaker.AgeKey key;
    static DecryptionKeys keys;
    static String encrypted;

    @BeforeAll
    static void make() throws Exception {
        maker = new SopsKeyMaker(dir);
        key = maker.age("team");
        Path keyDir = Files.createDirectory(dir.resolve("keys"));
        Files.copy(key.file(), keyDir.resolve("team.agekey"));
        keys = DecryptionKeys.fromDirectory(keyDir);
        encrypted = maker.encrypt(SECRET, "yaml", key.recipient());
    }

    @AfterAll
    static void stop() throws Exception { maker.close(); }

    private static MapSnapshot repo(String secretFile) { return repo(secretFile, Map.of()); }

    private static MapSnapshot repo(String secretFile, Map<String, String> more) {
        Map<String, byte[]> files = new TreeMap<>();
        more.forEach((path, text) -> files.put(path, text.getBytes(StandardCharsets.UTF_8)));
        files.put("apps/db/app.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: db}\nspec: {namespace: data, placement: {clusterSelector: {}}}\n"
                .getBytes(StandardCharsets.UTF_8));
        files.put("apps/db/manifests/secret.yaml", secretFile.getBytes(StandardCharsets.UTF_8));
        files.put("apps/db/manifests/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: plain}\ndata: {a: b}\n".getBytes(StandardCharsets.UTF_8));
        return new MapSnapshot("0".repeat(40), files);
    }

    private static Manifest secret(DesiredState d) {
        return d.apps().get("db").manifests().stream().filter(m -> m.ref().kind().equals("Secret")).findFirst().orElseThrow();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> annotations(Manifest m) {
        return (Map<String, Object>) ((Map<String, Object>) m.body().get("metadata")).get("annotations");
    }

    @Test
    void aPassSendsTheDecryptedObjectWithItsMarkersAndGitsHash() {
        MapSnapshot snapshot = repo(encrypted);
        DesiredState read = RepoParser.parse(snapshot);
        assertTrue(AppDecryption.encrypted(secret(read)));
        AppDecryption decryption = new AppDecryption(SopsDecryptor.fromEnvironment(), keys);
        Manifest sent = secret(decryption.decrypt(read, snapshot));
        assertEquals(Map.of("password", "s3cr3t-value-42"), sent.body().get("stringData"));
        assertFalse(sent.body().containsKey("sops"));
        Map<String, Object> meta = (Map<String, Object>) sent.body().get("metadata");
        assertEquals("data", meta.get("namespace"), "the application's namespace, as for any manifest");
        assertEquals(Map.of("tier", "data"), meta.get("labels"));
        String marker = (String) annotations(sent).get(AppDecryption.MARKER_ANNOTATION);
        assertTrue(marker.matches("sops:hmac-sha256:[0-9a-f]{12}"), marker);
        assertEquals(secret(read).hash(), sent.hash(), "Git's hash, of the ciphertext");
        Manifest keyless = secret(AppDecryption.keyless(read));
        assertEquals(annotations(keyless).get(AppDecryption.CIPHERTEXT_ANNOTATION), annotations(sent).get(AppDecryption.CIPHERTEXT_ANNOTATION),
                "a plan without keys compares what a pass applied");
        Manifest plain = read.apps().get("db").manifests().stream().filter(m -> m.ref().kind().equals("ConfigMap")).findFirst().orElseThrow();
        assertTrue(decryption.decrypt(read, snapshot).apps().get("db").manifests().contains(plain), "a plain manifest is left as it is");
    }

    @Test
    void decryptingKeepsWhatTheRepoSaysBesideTheApps() {
        MapSnapshot snapshot = repo(encrypted, Map.of("alerts/team.yaml", """
                apiVersion: windlass.dev/v1alpha1
                kind: Provider
                metadata: {name: team}
                spec: {type: webhook, address: "https://hooks.example.com/windlass"}
                ---
                apiVersion: windlass.dev/v1alpha1
                kind: Alert
                metadata: {name: drift}
                spec: {providerRef: {name: team}, eventKinds: [DriftCorrected]}
                """));
        DesiredState read = RepoParser.parse(snapshot);
        assertEquals(1, read.alerting().alerts().size(), read.diagnostics().toString());
        DesiredState decrypted = new AppDecryption(SopsDecryptor.fromEnvironment(), keys).decrypt(read, snapshot);
        assertEquals(read.alerting(), decrypted.alerting(), "the Alerts of a repo with an encrypted Secret are kept");
        assertEquals(read.alerting(), AppDecryption.keyless(read).alerting());
        assertEquals(read.settings(), decrypted.settings());
    }

    @Test
    void withoutKeysAnEncryptedObjectShowsNoCiphertextAndItsChangeIsSeen() throws Exception {
        DesiredState read = RepoParser.parse(repo(encrypted));
        Manifest keyless = secret(AppDecryption.keyless(read));
        assertFalse(keyless.body().containsKey("sops"));
        assertFalse(keyless.body().containsKey("stringData"), "the encrypted field is left out");
        assertFalse(keyless.body().toString().contains("ENC["), keyless.body().toString());
        String again = maker.encrypt(SECRET, "yaml", key.recipient());
        Manifest reencrypted = secret(AppDecryption.keyless(RepoParser.parse(repo(again))));
        assertNotEquals(annotations(keyless).get(AppDecryption.CIPHERTEXT_ANNOTATION), annotations(reencrypted).get(AppDecryption.CIPHERTEXT_ANNOTATION),
                "the same values encrypted again: a new ciphertext");
    }

    @Test
    void eachDocumentOfAFileIsTheObjectItWas() throws Exception {
        String two = maker.encrypt(SECRET + "---\n" + SECRET.replace("name: db", "name: cache").replace("s3cr3t-value-42", "other-value-17"), "yaml",
                key.recipient());
        MapSnapshot snapshot = repo(two);
        DesiredState d = new AppDecryption(SopsDecryptor.fromEnvironment(), keys).decrypt(RepoParser.parse(snapshot), snapshot);
        Map<String, Object> byName = new TreeMap<>();
        for (Manifest m : d.apps().get("db").manifests()) if (m.ref().kind().equals("Secret")) byName.put(m.ref().name(), m.body().get("stringData"));
        assertEquals(Map.of("db", Map.of("password", "s3cr3t-value-42"), "cache", Map.of("password", "other-value-17")), byName);
    }

    @Test
    void aFileThatCannotBeDecryptedIsAnErrorAtItsDocument() {
        MapSnapshot snapshot = repo("# kept by sops\n" + encrypted.replace("name: db", "name: db2"));
        DesiredState read = RepoParser.parse(snapshot);
        DesiredState d = new AppDecryption(SopsDecryptor.fromEnvironment(), keys).decrypt(read, snapshot);
        assertFalse(d.apps().get("db").valid());
        List<String> errors = d.diagnostics().stream().filter(Diagnostic::isError).map(Diagnostic::toString).toList();
        assertEquals(1, errors.size(), errors.toString());
        assertTrue(errors.get(0).startsWith("apps/db/manifests/secret.yaml:2:1: Secret data/db2 cannot be decrypted: it was changed after it was"
                + " encrypted: its MAC does not match its content"), errors.get(0));
    }
}
