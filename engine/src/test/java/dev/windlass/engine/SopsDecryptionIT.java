package dev.windlass.engine;

import dev.windlass.render.SopsKeyMaker;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.windlass.engine.reconcile.PassReport;
import dev.windlass.engine.render.AppDecryption;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.render.PlanMarkdown;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Secrets kept in Git encrypted by the real sops, for an age key (age-keygen) and an OpenPGP key (gpg), decrypted by
 * the engine with the keys of its key directory and applied to a real control plane: the API server holds the
 * plaintext, while the status branch, the plans and the engine's log hold none of it, in plain, base64 or hex. A file
 * changed after it was encrypted, one encrypted for a key the engine lacks, and an engine with no key each hold that
 * application only, at the file's {@code path:line:col}, and leave its Secret on the cluster as it was; another
 * application of the same commit is applied.
 */
class SopsDecryptionIT {
    private static final String DB_PASSWORD = "db-password-6c1f0e3a9b";
    private static final String DB_PASSWORD_2 = "db-password-rotated-88d2";
    private static final String API_KEY = "api-key-40e5b7c2d1";
    private static final String PG_TOKEN = "pg-token-a93b11f06e";
    private static final List<String> PLAINTEXTS = List.of(DB_PASSWORD, DB_PASSWORD_2, API_KEY, PG_TOKEN);

    @TempDir Path dir;

    @Test
    void encryptedSecretsAreAppliedDecryptedAndNothingElseSeesThem() throws Exception {
        ListAppender<ILoggingEvent> log = captureLog();
        List<String> plans = new ArrayList<>();
        Path keyDir = Files.createDirectory(dir.resolve("engine-keys"));
        // As windlass run --decryption-keys DIR sets it: the engine reads the directory, and again when its files change.
        System.setProperty(AppDecryption.KEYS_PROPERTY, keyDir.toString());
        try (SopsKeyMaker maker = new SopsKeyMaker(Files.createDirectory(dir.resolve("keymaker")))) {
            SopsKeyMaker.AgeKey team = maker.age("team");
            SopsKeyMaker.PgpKey ops = maker.pgp("ops");
            SopsKeyMaker.AgeKey stranger = maker.age("stranger");
            Files.copy(team.file(), keyDir.resolve("team.agekey"));
            Files.copy(ops.file(), keyDir.resolve("ops.asc"));
            try (TestFleet fleet = new TestFleet(dir, true)) {
                System.clearProperty(AppDecryption.KEYS_PROPERTY);
                scenario(fleet, maker, keyDir, team, ops, stranger, plans);
                assertTrue(fleet.statusLog().size() >= 5, "the passes were recorded: " + fleet.statusLog().size());
                assertNoPlaintext("the status branch", statusBranchText(fleet));
            }
            assertNoPlaintext("the plans", String.join("\n", plans));
            assertNoPlaintext("the engine's log", logText(log));
        } finally {
            System.clearProperty(AppDecryption.KEYS_PROPERTY);
            releaseLog(log);
        }
    }

    private void scenario(TestFleet fleet, SopsKeyMaker maker, Path keyDir, SopsKeyMaker.AgeKey team, SopsKeyMaker.PgpKey ops,
                          SopsKeyMaker.AgeKey stranger, List<String> plans) throws Exception {
        String db = maker.encrypt(dbSecret(DB_PASSWORD), "yaml", team.recipient());
        String pg = maker.encrypt(pgSecret(), "yaml", ops.fingerprint());
        for (String p : PLAINTEXTS) assertFalse(db.contains(p) || pg.contains(p), "sops encrypted the values");
        fleet.push("three applications, two with encrypted Secrets", c -> c
                .write("clusters/lab.yaml", fleet.clusterYaml("lab", "env: lab", 1, 0, ""))
                .write("apps/db/app.yaml", app("db")).write("apps/db/manifests/secret.yaml", db)
                .write("apps/pg/app.yaml", app("pg")).write("apps/pg/manifests/secret.yaml", pg)
                .write("apps/web/app.yaml", app("web")).write("apps/web/manifests/cm.yaml", configMap("v1")));

        PassReport first = fleet.pass();
        plans.add(PlanMarkdown.render(first.plan(), "main"));
        assertEquals(List.of(), errors(first));
        try (KubernetesClient lab = fleet.client("lab")) {
            Secret dbLive = lab.secrets().inNamespace("db").withName("db").get();
            assertEquals(DB_PASSWORD, decoded(dbLive, "password"), "the API server holds the decrypted stringData");
            assertEquals(API_KEY, decoded(dbLive, "apikey"), "and the decrypted data");
            assertEquals(PG_TOKEN, decoded(lab.secrets().inNamespace("pg").withName("pg").get(), "token"), "OpenPGP too");
            String marker = dbLive.getMetadata().getAnnotations().get(AppDecryption.MARKER_ANNOTATION);
            assertTrue(marker.matches("sops:hmac-sha256:[0-9a-f]{12}"), marker);
            assertFalse(dbLive.getData().containsKey("sops") || dbLive.getAdditionalProperties().containsKey("sops"), "no sops metadata sent");

            PassReport idle = fleet.pass();
            plans.add(PlanMarkdown.render(idle.plan(), "main"));
            assertFalse(idle.plan().hasChanges(), "what was decrypted and applied is no drift:\n" + idle.plan());
            String rendered = cli(0, "render", "db", "--repo", fleet.origin.toString(), "--workdir", dir.resolve("cli").toString(), "--cluster", "lab");
        plans.add(rendered);
        assertTrue(rendered.contains(AppDecryption.CIPHERTEXT_ANNOTATION) && !rendered.contains("ENC[") && !rendered.contains("sops:"),
                "windlass render shows the encrypted Secret keyless:\n" + rendered);
        String keylessPlan = plan(fleet, 0);
            plans.add(keylessPlan);
            assertTrue(keylessPlan.contains("**0 to create, 0 to change, 0 to delete"), "windlass plan, with no key, finds nothing to do:\n" + keylessPlan);

            // A new value, encrypted again: the Secret is updated, and the plan shows the marker change, not the value.
            // Reviewed first, on a branch, as a pull request comment: no key needed either.
        String rotation = encrypt(maker, dbSecret(DB_PASSWORD_2), team);
        fleet.pushTo("rotate", "rotate the db password", c -> c.write("apps/db/manifests/secret.yaml", rotation));
        String review = cli(1, "plan", "--repo", fleet.origin.toString(), "--workdir", dir.resolve("cli").toString(), "--kubeconfig-dir",
                dir.toString(), "--head", "rotate", "--comment");
        plans.add(review);
        assertTrue(review.contains("Secret db/db") && review.contains(AppDecryption.CIPHERTEXT_ANNOTATION),
                "the review says the encrypted Secret changes:\n" + review);
        fleet.push("rotate the db password", c -> c.write("apps/db/manifests/secret.yaml", rotation));
            String rotationWithoutKeys = plan(fleet, 1);
            plans.add(rotationWithoutKeys);
            assertTrue(rotationWithoutKeys.contains("| ~ Update | Secret db/db | db | changed in Git: metadata.annotations."
                    + AppDecryption.CIPHERTEXT_ANNOTATION + " |"), "windlass plan, with no key, says the ciphertext changed:\n" + rotationWithoutKeys);
            PassReport rotated = fleet.pass();
            String rotatedPlan = PlanMarkdown.render(rotated.plan(), "main");
            plans.add(rotatedPlan);
            assertEquals(List.of(), errors(rotated));
            assertTrue(rotatedPlan.contains("| ~ Update | Secret db/db | db | changed in Git: metadata.annotations." + AppDecryption.CIPHERTEXT_ANNOTATION
                    + ", metadata.annotations." + AppDecryption.MARKER_ANNOTATION + ", stringData.password |"),
                    "the pass's plan says what changed, by name, the value by its marker:\n" + rotatedPlan);
            Secret dbRotated = lab.secrets().inNamespace("db").withName("db").get();
            assertEquals(DB_PASSWORD_2, decoded(dbRotated, "password"));
            String newMarker = dbRotated.getMetadata().getAnnotations().get(AppDecryption.MARKER_ANNOTATION);
            assertNotEquals(marker, newMarker, "the marker changes with the value");

            // A tampered file, and one encrypted for a key the engine does not hold: each holds its own application only.
            String tampered = tamper(encrypt(maker, dbSecret(DB_PASSWORD), team));
            fleet.push("tamper with db, encrypt pg for a stranger, change web", c -> c
                    .write("apps/db/manifests/secret.yaml", tampered)
                    .write("apps/pg/manifests/secret.yaml", encrypt(maker, pgSecret(), stranger.recipient()))
                    .write("apps/web/manifests/cm.yaml", configMap("v2")));
            PassReport broken = fleet.pass();
            plans.add(PlanMarkdown.render(broken.plan(), "main"));
            assertEquals(List.of("apps/db/manifests/secret.yaml:1:1: Secret db/db cannot be decrypted: it was changed after it was"
                    + " encrypted: a value does not decrypt (its authentication tag fails); restore the file as sops wrote it, or edit it"
                    + " with sops (sops edit FILE) so that it is encrypted again",
                    "apps/pg/manifests/secret.yaml:1:1: Secret pg/pg cannot be decrypted: none of this engine's decryption keys opens it:"
                    + " it is encrypted for " + stranger.recipient() + "; give the engine one of those private keys, or re-encrypt the"
                    + " file for a key the engine has (sops updatekeys after adding it to .sops.yaml)"),
                    errors(broken));
            assertEquals("v2", lab.configMaps().inNamespace("web").withName("web").get().getData().get("k"), "the other application is applied");
            assertEquals(DB_PASSWORD_2, decoded(lab.secrets().inNamespace("db").withName("db").get(), "password"), "db is left as it was");
            assertEquals(PG_TOKEN, decoded(lab.secrets().inNamespace("pg").withName("pg").get(), "token"), "pg is left as it was");

            // An engine with no key at all: the encrypted application is held, saying how to give it one.
            Path away = Files.createDirectory(dir.resolve("keys-away"));
            Files.move(keyDir.resolve("team.agekey"), away.resolve("team.agekey"));
            Files.move(keyDir.resolve("ops.asc"), away.resolve("ops.asc"));
            fleet.push("db fixed, web changed again", c -> c
                    .write("apps/db/manifests/secret.yaml", encrypt(maker, dbSecret(DB_PASSWORD), team))
                    .write("apps/web/manifests/cm.yaml", configMap("v3")));
            PassReport keyless = fleet.pass();
            plans.add(PlanMarkdown.render(keyless.plan(), "main"));
            List<String> said = errors(keyless);
            assertTrue(said.get(0).startsWith("apps/db/manifests/secret.yaml:1:1: Secret db/db cannot be decrypted: it is encrypted with SOPS for "
                    + team.recipient() + ", and this engine has no decryption key; give the engine"), said.toString());
            assertEquals("v3", lab.configMaps().inNamespace("web").withName("web").get().getData().get("k"));
            assertEquals(DB_PASSWORD_2, decoded(lab.secrets().inNamespace("db").withName("db").get(), "password"), "db is left as it was");

            // The keys back: db decrypts and applies again.
            Files.move(away.resolve("team.agekey"), keyDir.resolve("team.agekey"));
            Files.move(away.resolve("ops.asc"), keyDir.resolve("ops.asc"));
            PassReport back = fleet.pass();
            plans.add(PlanMarkdown.render(back.plan(), "main"));
            assertEquals(DB_PASSWORD, decoded(lab.secrets().inNamespace("db").withName("db").get(), "password"));
        }
    }

    /** {@code windlass plan} of main, run as a user runs it (no decryption keys), its exit code checked; what it printed. */
    private String plan(TestFleet fleet, int expectedExit) {
        return cli(expectedExit, "plan", "--repo", fleet.origin.toString(), "--workdir", dir.resolve("cli").toString(), "--kubeconfig-dir",
                dir.toString(), "--ref", "main");
    }

    /** A windlass command run as a user runs it (no decryption keys), its exit code checked; what it printed. */
    private static String cli(int expectedExit, String... args) {
        java.io.StringWriter out = new java.io.StringWriter();
        java.io.StringWriter err = new java.io.StringWriter();
        int code = dev.windlass.engine.cli.Main.run(new java.io.PrintWriter(out, true), new java.io.PrintWriter(err, true), args);
        assertEquals(expectedExit, code, out + "\n" + err);
        return out + "\n" + err;
    }

    private static String app(String name) {
        return """
                apiVersion: windlass.dev/v1alpha1
                kind: Application
                metadata: {name: %s}
                spec:
                  namespace: %s
                  placement: {clusterNames: [lab]}
                """.formatted(name, name);
    }

    private static String dbSecret(String password) {
        return """
                apiVersion: v1
                kind: Secret
                metadata:
                  name: db
                type: Opaque
                stringData:
                  password: %s
                data:
                  apikey: %s
                """.formatted(password, Base64.getEncoder().encodeToString(API_KEY.getBytes(StandardCharsets.UTF_8)));
    }

    private static String pgSecret() {
        return "apiVersion: v1\nkind: Secret\nmetadata:\n  name: pg\nstringData:\n  token: " + PG_TOKEN + "\n";
    }

    private static String configMap(String value) {
        return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  k: " + value + "\n";
    }

    private static String encrypt(SopsKeyMaker maker, String plain, SopsKeyMaker.AgeKey key) {
        return encrypt(maker, plain, key.recipient());
    }

    private static String encrypt(SopsKeyMaker maker, String plain, String recipient) {
        try {
            return maker.encrypt(plain, "yaml", recipient);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** One character of the first encrypted value changed, as a hand edit of the file would. */
    private static String tamper(String encrypted) {
        int at = encrypted.indexOf("ENC[AES256_GCM,data:") + "ENC[AES256_GCM,data:".length();
        return encrypted.substring(0, at) + (encrypted.charAt(at) == 'A' ? 'B' : 'A') + encrypted.substring(at + 1);
    }

    private static String decoded(Secret s, String key) {
        return new String(Base64.getDecoder().decode(s.getData().get(key)), StandardCharsets.UTF_8);
    }

    private static List<String> errors(PassReport r) {
        return r.desired().diagnostics().stream().filter(Diagnostic::isError).map(Diagnostic::toString).toList();
    }

    /** Every file of every commit of the status branch, and the commits' messages. */
    static String statusBranchText(TestFleet fleet) throws Exception {
        StringBuilder all = new StringBuilder();
        try (Git git = Git.open(fleet.origin.toFile())) {
            Repository repo = git.getRepository();
            List<RevCommit> commits = fleet.statusLog();
            for (RevCommit c : commits) {
                all.append(c.getFullMessage()).append('\n');
                try (TreeWalk walk = new TreeWalk(repo)) {
                    walk.addTree(c.getTree());
                    walk.setRecursive(true);
                    while (walk.next()) {
                        ObjectId id = walk.getObjectId(0);
                        all.append(walk.getPathString()).append('\n').append(new String(repo.open(id).getBytes(), StandardCharsets.UTF_8)).append('\n');
                    }
                }
            }
        }
        return all.toString();
    }

    private static void assertNoPlaintext(String where, String text) { assertNoPlaintext(where, text, PLAINTEXTS); }

    /** Neither {@code plaintexts} nor their base64 or hex forms are in {@code text}. */
    static void assertNoPlaintext(String where, String text, List<String> plaintexts) {
        for (String p : plaintexts) {
            byte[] b = p.getBytes(StandardCharsets.UTF_8);
            for (String form : List.of(p, Base64.getEncoder().encodeToString(b), HexFormat.of().formatHex(b))) {
                assertFalse(text.contains(form), where + " holds a decrypted value (" + form + ")");
            }
        }
        assertFalse(text.isEmpty(), where + " was read");
    }

    private static ListAppender<ILoggingEvent> captureLog() {
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        Logger windlass = (Logger) LoggerFactory.getLogger("dev.windlass");
        windlass.setLevel(Level.DEBUG);
        log.start();
        windlass.addAppender(log);
        ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).addAppender(log);
        return log;
    }

    private static void releaseLog(ListAppender<ILoggingEvent> log) {
        Logger windlass = (Logger) LoggerFactory.getLogger("dev.windlass");
        windlass.detachAppender(log);
        windlass.setLevel(Level.WARN);
        ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).detachAppender(log);
    }

    private static String logText(ListAppender<ILoggingEvent> log) {
        StringBuilder all = new StringBuilder();
        for (ILoggingEvent e : log.list) {
            all.append(e.getFormattedMessage()).append('\n');
            if (e.getThrowableProxy() != null) all.append(e.getThrowableProxy().getMessage()).append('\n');
        }
        return all.toString();
    }
}
