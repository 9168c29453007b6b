package dev.windlass.engine;

import dev.windlass.git.Signers;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.reconcile.CommitGate;
import dev.windlass.engine.reconcile.Engine;
import dev.windlass.engine.reconcile.PassReport;
import dev.windlass.engine.status.StatusFiles;
import dev.windlass.git.GitRemote;
import dev.windlass.git.Mirror;
import dev.windlass.git.TrustedKeys;
import dev.windlass.policy.model.VerifySettings.Mode;
import dev.windlass.policy.source.SignatureOutcome;
import dev.windlass.policy.source.Verification;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Only commits signed by a key the engine trusts reach the cluster. Commits are made and signed by the real git, with keys
 * the real gpg and ssh-keygen make at test time; the engine reads its trusted keys from a directory as {@code windlass
 * run --trusted-keys} does. What is checked is what reaches the cluster (its objects, and the writes its API server
 * counted), the status branch (status/verification.yaml and the commit message), and the engine's Git round trips.
 */
class VerifiedCommitsIT {
    @TempDir Path dir;

    static final String APP = """
            apiVersion: windlass.dev/v1alpha1
            kind: Application
            metadata: {name: web}
            spec:
              namespace: web
              placement: {clusterNames: [lab]}
              syncPolicy: {force: true}   # a hand edit owns the fields it changed: self-healing it takes them back
            """;

    static String configMap(String name, String value) {
        return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: " + name + "}\ndata: {version: \"" + value + "\"}\n";
    }

    static String settings(String verify) {
        return "apiVersion: windlass.dev/v1alpha1\nkind: Settings\nmetadata: {name: windlass}\nspec:\n  interval: 30s\n" + verify;
    }

    static String version(TestFleet fleet, String name) {
        try (KubernetesClient k = fleet.client("lab")) {
            ConfigMap cm = k.configMaps().inNamespace("web").withName(name).get();
            return cm == null ? null : cm.getData().get("version");
        }
    }

    static Verification recorded(TestFleet fleet) throws Exception {
        String text = fleet.statusFile(StatusFiles.VERIFICATION);
        return text == null ? null : StatusFiles.readVerification(Map.of(StatusFiles.VERIFICATION, text.getBytes(StandardCharsets.UTF_8)));
    }

    static void push(Signers s, TestFleet fleet) throws Exception {
        s.git("push", "-q", "-f", fleet.origin.toString(), "HEAD:refs/heads/main");
    }

    /**
     * On a real control plane, with {@code --verify-commits Tip}: OpenPGP and SSH signatures by trusted keys are applied;
     * an unsigned commit, a commit signed by an unknown key, and a force-push to an unsigned commit are not, and the engine
     * keeps reconciling the last verified revision, also after a restart. An idle pass costs one Git round trip and no
     * signature check.
     */
    @Test void onlyVerifiedRevisionsReachTheCluster() throws Exception {
        try (Signers s = new Signers(dir.resolve("signers")); TestFleet fleet = new TestFleet(dir.resolve("fleet"), true)) {
            String alice = s.gpgKey("Alice", "alice@example.com");
            String mallory = s.gpgKey("Mallory", "mallory@example.com");
            Path aliceSsh = s.sshKey("alice");
            Path mallorySsh = s.sshKey("mallory");
            s.trustGpg(alice, "alice.asc");
            s.trustSsh(aliceSsh, "alice@example.com");
            fleet.engine.verifyCommits(TrustedKeys.load(s.trusted), Mode.Tip);
            CommitGate gate = gate(fleet.engine);

            String c1 = s.commit("web 1, signed by alice (OpenPGP)", new Signers.Gpg(alice), Map.of(
                    "clusters/lab.yaml", fleet.clusterYaml("lab", "", 1, 0, ""),
                    "apps/web/app.yaml", APP, "apps/web/manifests/web.yaml", configMap("web", "1")));
            push(s, fleet);
            PassReport first = fleet.pass();
            assertEquals(c1, first.source());
            assertEquals("1", version(fleet, "web"));
            assertEquals(new Verification(Mode.Tip, c1, c1, null), recorded(fleet));

            // Idle: one Git round trip, no signature checked again, nothing written to the cluster.
            fleet.settle();
            long checks = gate.checks();
            long trips = fleet.engine.mirror().roundTrips();
            fleet.backend.resetWrites("lab");
            PassReport idle = fleet.pass();
            assertTrue(!idle.committed(), "nothing new: no status commit");
            assertEquals(checks, gate.checks(), "no re-verification while the branch stays");
            assertEquals(trips + 1, fleet.engine.mirror().roundTrips(), "one Git round trip");
            assertEquals(0, fleet.backend.writes("lab"));

            // Unsigned: nothing of it is applied, the status says why.
            String c2 = s.commit("web 2 and extra, unsigned", Signers.UNSIGNED,
                    Map.of("apps/web/manifests/web.yaml", configMap("web", "2"), "apps/web/manifests/extra.yaml", configMap("extra", "2")));
            push(s, fleet);
            fleet.backend.resetWrites("lab");
            PassReport refused = fleet.pass();
            assertEquals(c1, refused.source(), "the pass applies the verified revision");
            assertEquals("1", version(fleet, "web"));
            assertNull(version(fleet, "extra"));
            assertEquals(0, fleet.backend.writes("lab"), "the API server saw no write");
            Verification v = recorded(fleet);
            assertEquals(new Verification(Mode.Tip, c1, c2, new Verification.Refusal(c2, SignatureOutcome.UNSIGNED, null)), v);
            String expected = "commit " + c2.substring(0, 7) + " is not signed; nothing of it is applied; still applying " + c1.substring(0, 7);
            assertEquals(expected, v.text());
            RevCommit statusCommit = fleet.statusLog().get(0);
            assertTrue(statusCommit.getFullMessage().contains("Not applied: " + expected), statusCommit.getFullMessage());
            assertTrue(fleet.statusFile(StatusFiles.VERIFICATION).contains("outcome: UNSIGNED"), fleet.statusFile(StatusFiles.VERIFICATION));

            checks = gate.checks();
            fleet.pass();
            assertEquals(checks, gate.checks(), "a refused tip is not checked again while it stays");

            // Drift on the cluster is corrected to the verified revision, not to the refused tip.
            try (KubernetesClient k = fleet.client("lab")) {
                k.configMaps().inNamespace("web").withName("web").edit(cm -> { cm.getData().put("version", "by hand"); return cm; });
            }
            fleet.pass();
            assertEquals("1", version(fleet, "web"));
            assertNull(version(fleet, "extra"));

            // A restarted engine (a fresh mirror) keeps applying the verified revision it finds recorded.
            try (Engine restarted = new Engine(Mirror.open(dir.resolve("engine-2"), GitRemote.anonymous(fleet.origin.toString())), "main",
                    "windlass/status", fleet.sandbox, fleet.clock, System::getenv, dev.windlass.applier.cluster.ClientSettings.DEFAULT,
                    dev.windlass.applier.cluster.ManagementCluster.NONE)) {
                restarted.verifyCommits(TrustedKeys.load(s.trusted), Mode.Tip);
                fleet.backend.resetWrites("lab");
                PassReport after = restarted.reconciler().reconcile();
                assertEquals(c1, after.source());
                assertEquals(1, gate(restarted).checks(), "the new engine checks the tip once");
                assertEquals("1", version(fleet, "web"));
                assertNull(version(fleet, "extra"));
                assertEquals(0, fleet.backend.writes("lab"));
            }

            // Signed by a key that is not trusted (SSH, then OpenPGP).
            String c3 = s.commit("web 3, signed by mallory (SSH)", new Signers.Ssh(mallorySsh), Map.of("apps/web/manifests/web.yaml", configMap("web", "3")));
            push(s, fleet);
            fleet.pass();
            assertEquals("1", version(fleet, "web"));
            v = recorded(fleet);
            assertEquals(SignatureOutcome.UNKNOWN_KEY, v.refused().outcome());
            assertEquals(c3, v.refused().commit());
            assertTrue(v.refused().key().startsWith("SHA256:"), v.refused().key());
            assertTrue(v.text().startsWith("commit " + c3.substring(0, 7) + " is signed by an unknown key SHA256:"), v.text());
            String c3b = s.commit("web 3b, signed by mallory (OpenPGP)", new Signers.Gpg(mallory), Map.of("apps/web/manifests/web.yaml", configMap("web", "3b")));
            push(s, fleet);
            fleet.pass();
            assertEquals("1", version(fleet, "web"));
            assertEquals(new Verification.Refusal(c3b, SignatureOutcome.UNKNOWN_KEY, mallory), recorded(fleet).refused());

            // Signed by alice's SSH key: the tip is verified, and the whole tree at it is applied (Tip checks the tip only).
            String c4 = s.commit("web 4, signed by alice (SSH)", new Signers.Ssh(aliceSsh), Map.of("apps/web/manifests/web.yaml", configMap("web", "4")));
            push(s, fleet);
            PassReport applied = fleet.pass();
            assertEquals(c4, applied.source());
            assertEquals("4", version(fleet, "web"));
            assertEquals("2", version(fleet, "extra"));
            assertEquals(new Verification(Mode.Tip, c4, c4, null), recorded(fleet));

            // A force-push to an unsigned commit is refused like any unsigned tip.
            s.git("reset", "-q", "--hard", c1);
            String forced = s.commit("web 5, unsigned, force-pushed over alice's work", Signers.UNSIGNED,
                    Map.of("apps/web/manifests/web.yaml", configMap("web", "5")));
            push(s, fleet);
            fleet.backend.resetWrites("lab");
            PassReport afterForce = fleet.pass();
            assertEquals(c4, afterForce.source(), "still applying the verified revision the force-push left behind");
            assertEquals("4", version(fleet, "web"));
            assertEquals("2", version(fleet, "extra"), "nothing of the forced commit is applied, not even its prunes");
            assertEquals(0, fleet.backend.writes("lab"));
            assertEquals(new Verification.Refusal(forced, SignatureOutcome.UNSIGNED, null), recorded(fleet).refused());
        }
    }

    /**
     * A signed merge of unsigned commits, on the sandbox: {@code Tip} applies it (the merge is signed), {@code AllSince}
     * does not (the commits it brings are not). The repo's Settings turn the check on here, with no engine flag, and an
     * unsigned commit that removes the setting is itself refused.
     */
    @Test void aSignedMergeOfUnsignedCommitsPassesTipAndFailsAllSince() throws Exception {
        assertEquals("merged", mergeStory("Tip"));
        assertEquals("1", mergeStory("AllSince"));
    }

    /** Returns the version on the cluster after the merge's pass. */
    private String mergeStory(String mode) throws Exception {
        Path d = dir.resolve(mode);
        try (Signers s = new Signers(d.resolve("signers")); TestFleet fleet = new TestFleet(d.resolve("fleet"))) {
            String host = s.gpgKey("Git Host", "noreply@host.example");
            s.trustGpg(host, "host.asc");
            fleet.engine.verifyCommits(TrustedKeys.load(s.trusted), Mode.Off);
            String c1 = s.commit("web 1, signed by the host", new Signers.Gpg(host), Map.of(
                    "windlass.yaml", settings("  verify: {mode: " + mode + "}\n"),
                    "clusters/lab.yaml", fleet.clusterYaml("lab", "", 1, 0, ""),
                    "apps/web/app.yaml", APP, "apps/web/manifests/web.yaml", configMap("web", "1")));
            push(s, fleet);
            assertEquals(c1, fleet.pass().source());
            assertEquals("1", version(fleet, "web"));

            s.git("checkout", "-q", "-b", "feature");
            s.commit("unsigned 1", Signers.UNSIGNED, Map.of("apps/web/manifests/web.yaml", configMap("web", "f1")));
            String f2 = s.commit("unsigned 2", Signers.UNSIGNED, Map.of("apps/web/manifests/web.yaml", configMap("web", "merged")));
            s.git("checkout", "-q", "main");
            s.git(new Signers.Gpg(host), "merge", "-q", "--no-ff", "-S", "-m", "Merge feature (by the host's web UI)", "feature");
            String merge = s.git("rev-parse", "HEAD").trim();
            push(s, fleet);
            fleet.resetRequestCounts();
            PassReport r = fleet.pass();
            String result = version(fleet, "web");
            Verification v = recorded(fleet);
            if (mode.equals("Tip")) {
                assertEquals(merge, r.source());
                assertEquals(new Verification(Mode.Tip, merge, merge, null), v);
            } else {
                assertEquals(c1, r.source());
                assertEquals(0, fleet.writes(), "the sandbox's API server saw no write");
                assertEquals(SignatureOutcome.UNSIGNED, v.refused().outcome());
                String firstUnsigned = s.git("rev-parse", "feature~1").trim();
                assertEquals(firstUnsigned, v.refused().commit(), "the oldest unsigned commit the merge brings");
                assertTrue(v.text().contains("(on the way to the tip " + merge.substring(0, 7) + "); nothing of the tip is applied; still applying "
                        + c1.substring(0, 7)), v.text());
                assertTrue(!f2.equals(firstUnsigned));
            }

            // An unsigned commit that drops the setting is checked under the setting it drops.
            s.commit("drop verify, unsigned", Signers.UNSIGNED, Map.of("windlass.yaml", settings(""),
                    "apps/web/manifests/web.yaml", configMap("web", "unverified")));
            push(s, fleet);
            fleet.pass();
            assertTrue(!"unverified".equals(version(fleet, "web")), "the repo cannot turn the check off with an unsigned commit");
            assertEquals(SignatureOutcome.UNSIGNED, recorded(fleet).refused().outcome());
            return result;
        }
    }

    /** With no revision ever verified, nothing is applied and the pass fails saying why; the status branch says it too. */
    @Test void withNoVerifiedRevisionNothingIsApplied() throws Exception {
        try (Signers s = new Signers(dir.resolve("signers")); TestFleet fleet = new TestFleet(dir.resolve("fleet"))) {
            s.trustSsh(s.sshKey("alice"), "alice@example.com");
            fleet.engine.verifyCommits(TrustedKeys.load(s.trusted), Mode.Tip);
            String c1 = s.commit("unsigned first", Signers.UNSIGNED, Map.of("clusters/lab.yaml", fleet.clusterYaml("lab", "", 1, 0, ""),
                    "apps/web/app.yaml", APP, "apps/web/manifests/web.yaml", configMap("web", "1")));
            push(s, fleet);
            var e = assertThrows(java.io.IOException.class, fleet::pass);
            assertEquals("nothing is applied: commit " + c1.substring(0, 7) + " is not signed; nothing of it is applied; no verified revision yet,"
                    + " nothing is applied", e.getMessage());
            assertEquals(new Verification(Mode.Tip, null, c1, new Verification.Refusal(c1, SignatureOutcome.UNSIGNED, null)), recorded(fleet));
            assertEquals(0, fleet.writes());

            // windlass status says it first, before it says that there is no status of applications yet.
            java.io.StringWriter out = new java.io.StringWriter();
            java.io.StringWriter err = new java.io.StringWriter();
            int code = dev.windlass.engine.cli.Main.run(new java.io.PrintWriter(out, true), new java.io.PrintWriter(err, true),
                    "status", "--repo", fleet.origin.toString(), "--workdir", dir.resolve("cli").toString());
            assertEquals("Not applied: commit " + c1.substring(0, 7) + " is not signed; nothing of it is applied; no verified revision yet,"
                    + " nothing is applied\n", out.toString());
            assertEquals(1, code, err.toString());
        }
    }

    /** A branch of unsigned commits is still reviewed (planned), and its plan says the engine would not apply such a commit. */
    @Test void reviewsOfUnsignedBranchesArePlannedAndMarked() throws Exception {
        try (Signers s = new Signers(dir.resolve("signers")); TestFleet fleet = new TestFleet(dir.resolve("fleet"))) {
            Path aliceSsh = s.sshKey("alice");
            s.trustSsh(aliceSsh, "alice@example.com");
            fleet.engine.verifyCommits(TrustedKeys.load(s.trusted), Mode.Tip);
            s.commit("web 1", new Signers.Ssh(aliceSsh), Map.of("clusters/lab.yaml", fleet.clusterYaml("lab", "", 1, 0, ""),
                    "apps/web/app.yaml", APP, "apps/web/manifests/web.yaml", configMap("web", "1")));
            push(s, fleet);
            s.git("checkout", "-q", "-b", "unsigned");
            String unsigned = s.commit("web 2, unsigned", Signers.UNSIGNED, Map.of("apps/web/manifests/web.yaml", configMap("web", "2")));
            s.git("push", "-q", fleet.origin.toString(), "unsigned:refs/heads/unsigned");
            s.git("checkout", "-q", "-b", "signed", "main");
            s.commit("web 3, signed", new Signers.Ssh(aliceSsh), Map.of("apps/web/manifests/web.yaml", configMap("web", "3")));
            s.git("push", "-q", fleet.origin.toString(), "signed:refs/heads/signed");
            PassReport r = fleet.pass();
            fleet.engine.reviews().run(r.source(), r.desired());

            String plan = fleet.statusFile("plans/unsigned.md");
            assertTrue(plan.contains("> **Not signed by a trusted key** (`UNSIGNED`): head `" + unsigned.substring(0, 7) + "` is planned all the"
                    + " same, but the engine applies a commit of `main` only when it is signed by a key it trusts."), plan);
            assertTrue(plan.contains("| ~ Update | ConfigMap web/web | web | changed in Git: data.version |") && plan.contains("+  version: '2'"),
                    "still planned:\n" + plan);
            String signed = fleet.statusFile("plans/signed.md");
            assertTrue(!signed.contains("Not signed by a trusted key"), signed);
            assertEquals("1", version(fleet, "web"), "a review applies nothing");
        }
    }

    private static CommitGate gate(Engine engine) {
        return engine.reconciler().commitGate();
    }
}
