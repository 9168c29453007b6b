package dev.windlass.engine.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.TestFleet;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code windlass plan --base main --head <branch>} on a real origin with sandbox clusters settled on main: the
 * review of merging the branch, deterministic, as its pull request comment, and its exit codes: 0 nothing to change,
 * 1 changes, 2 validation errors, a merge conflict or a bad command line.
 */
class PlanReviewCommandE2E {
    static final String CLUSTER = """
            apiVersion: windlass.dev/v1alpha1
            kind: Cluster
            metadata:
              name: eu-1
              labels: {env: prod}
            spec:
              connection:
                sandbox: {nodes: 1}
            """;
    static final String APP = """
            apiVersion: windlass.dev/v1alpha1
            kind: Application
            metadata:
              name: web
            spec:
              namespace: web
              placement:
                clusterSelector: {matchLabels: {env: prod}}
              syncPolicy:
                prune: %s
            """;
    static final String DEPLOYMENT = """
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: web
            spec:
              replicas: 1
              selector:
                matchLabels: {app: web}
              template:
                metadata:
                  labels: {app: web}
                spec:
                  containers:
                    - name: web
                      image: ghcr.io/example/web:%s
            """;
    static final String DEPLOYMENT_PATH = "apps/web/manifests/deployment.yaml";

    @TempDir Path dir;
    int mirrors;

    record Run(int code, String out, String err) {}

    /** One command line, each from a mirror of its own unless {@code workdir} is given. */
    Run windlass(TestFleet fleet, String... args) {
        List<String> all = new ArrayList<>(List.of("plan", "--repo", fleet.origin.toString(), "--workdir", dir.resolve("cli-" + ++mirrors).toString()));
        all.addAll(List.of(args));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), all.toArray(String[]::new));
        return new Run(code, out.toString(), err.toString());
    }

    Run review(TestFleet fleet, String head, String... more) {
        List<String> args = new ArrayList<>(List.of("--base", "main", "--head", head));
        args.addAll(List.of(more));
        return windlass(fleet, args.toArray(String[]::new));
    }

    /** Cluster eu-1 and app web (one Deployment running web:1.0.0), applied and settled. */
    TestFleet settledFleet(String... extra) throws Exception {
        TestFleet fleet = new TestFleet(dir);
        fleet.push("the fleet", c -> {
            c = c.write("clusters/eu-1.yaml", CLUSTER).write("apps/web/app.yaml", APP.formatted("true"))
                    .write(DEPLOYMENT_PATH, DEPLOYMENT.formatted("1.0.0"));
            for (int i = 0; i < extra.length; i += 2) c = c.write(extra[i], extra[i + 1]);
            return c;
        });
        fleet.settle();
        return fleet;
    }

    static String shortId(String sha) { return sha.substring(0, 12); }

    @Test
    void aBranchChangingAnImageIsReviewedAsItsMergeDeterministicallyAndAsTheComment() throws Exception {
        try (TestFleet fleet = settledFleet()) {
            fleet.pushTo("feature/x", "web 2.0.0", c -> c.write(DEPLOYMENT_PATH, DEPLOYMENT.formatted("2.0.0")));

            Run r = review(fleet, "feature/x");
            assertEquals(1, r.code(), r.out() + "\n" + r.err());
            String review = r.out();
            assertTrue(review.startsWith("## Windlass plan: `feature/x` into `main`\n"), review);
            assertTrue(review.contains("**1 object to create, change or delete on 1 cluster, in 1 wave**: 0 to create, 1 to change, 0 to delete."), review);
            assertTrue(review.contains("\n### Wave 1 of 1: on merge\n"), review);
            assertTrue(review.contains("| ~ Update | Deployment web/web | web |"), review);

            Matcher diff = Pattern.compile("```diff\n(.*?)```\n", Pattern.DOTALL).matcher(review);
            assertTrue(diff.find(), review);
            String block = diff.group(1);
            assertTrue(block.startsWith("--- Deployment web/web on eu-1 (live)\n+++ Deployment web/web on eu-1 (Git)\n"), block);
            assertTrue(block.lines().anyMatch(l -> l.startsWith("-") && l.endsWith("image: ghcr.io/example/web:1.0.0")), block);
            assertTrue(block.lines().anyMatch(l -> l.startsWith("+") && l.endsWith("image: ghcr.io/example/web:2.0.0")), block);
            assertFalse(diff.find(), "one diff, for the one object that changes:\n" + review);

            // The branch starts at main's head: the merge is a fast-forward, so there is no merge preview to name.
            String footer = "\n---\nPlan `[0-9a-f]+` · main `" + shortId(fleet.head("refs/heads/main")) + "` · head `"
                    + shortId(fleet.head("refs/heads/feature/x")) + "`\n";
            assertTrue(Pattern.compile(footer + "$").matcher(review).find(), review);
            assertTrue(r.err().contains("note: sandbox clusters were planned from the status branch's record"), r.err());

            assertEquals(r, review(fleet, "feature/x"), "the same review from another mirror, byte for byte");

            Run comment = review(fleet, "feature/x", "--comment");
            assertEquals(1, comment.code(), comment.err());
            assertEquals("<!-- windlass-plan: feature/x -->\n" + review, comment.out());

            Run noHead = windlass(fleet, "--comment");
            assertEquals(2, noHead.code(), noHead.out());
            assertEquals("", noHead.out());
            assertTrue(noHead.err().contains("--comment needs --head"), noHead.err());

            Run unknown = review(fleet, "feature/none");
            assertEquals(2, unknown.code(), unknown.out());
            assertTrue(unknown.err().contains("no branch or commit 'feature/none'"), unknown.err());

            fleet.merge("feature/x");
            Run merged = review(fleet, "feature/x");
            assertEquals(0, merged.code(), merged.out() + "\n" + merged.err());
            assertEquals("feature/x is already part of main: nothing to review\n", merged.out().replace("\r\n", "\n"));
        }
    }

    @Test
    void aBranchAtMainsHeadHasNothingToReview() throws Exception {
        try (TestFleet fleet = settledFleet()) {
            fleet.setRef("refs/heads/feature/same", fleet.head("refs/heads/main"));
            Run r = review(fleet, "feature/same");
            assertEquals(0, r.code(), r.out() + "\n" + r.err());
            assertTrue(r.out().contains("nothing to review"), r.out());

            Run comment = review(fleet, "feature/same", "--comment");
            assertEquals(0, comment.code(), comment.out() + "\n" + comment.err());
            assertFalse(comment.out().contains("<!-- windlass-plan"), "no review, so no comment:\n" + comment.out());
        }
    }

    @Test
    void anInvalidApplicationFieldOnTheBranchIsAValidationError() throws Exception {
        try (TestFleet fleet = settledFleet()) {
            fleet.pushTo("feature/invalid", "prune maybe", c -> c.write("apps/web/app.yaml", APP.formatted("maybe"))
                    .write(DEPLOYMENT_PATH, DEPLOYMENT.formatted("2.0.0")));

            Run r = review(fleet, "feature/invalid");
            assertEquals(2, r.code(), r.out() + "\n" + r.err());
            String review = r.out();
            assertTrue(review.startsWith("## Windlass plan: `feature/invalid` into `main`\n"), review);
            int errors = review.indexOf("\n### Validation errors\n");
            assertTrue(errors >= 0, review);
            String section = review.substring(errors);
            assertTrue(Pattern.compile("\n- `apps/web/app\\.yaml:\\d+:\\d+: [^`]*prune[^`]*must be true or false[^`]*`\n").matcher(section).find(), section);
            assertTrue(review.contains("**Invalid**: not applied"), review);
            assertFalse(review.contains("web:2.0.0"), "an invalid application's manifests are not applied:\n" + review);
        }
    }

    @Test
    void aBranchThatConflictsWithMainCannotBePlanned() throws Exception {
        try (TestFleet fleet = settledFleet()) {
            fleet.pushTo("feature/conflict", "web 2.0.0", c -> c.write(DEPLOYMENT_PATH, DEPLOYMENT.formatted("2.0.0")));
            fleet.push("web 3.0.0", c -> c.write(DEPLOYMENT_PATH, DEPLOYMENT.formatted("3.0.0")));

            Run r = review(fleet, "feature/conflict");
            assertEquals(2, r.code(), r.out() + "\n" + r.err());
            String review = r.out();
            assertTrue(review.startsWith("## Windlass plan: `feature/conflict` into `main`\n"), review);
            assertTrue(review.contains("Cannot plan: the branch conflicts with main"), review);
            assertTrue(review.contains("`" + DEPLOYMENT_PATH + "`"), review);
            assertFalse(review.contains("```diff"), review);
            assertTrue(review.endsWith("\n---\nmain `" + shortId(fleet.head("refs/heads/main")) + "` · head `"
                    + shortId(fleet.head("refs/heads/feature/conflict")) + "`\n"), review);

            Run comment = review(fleet, "feature/conflict", "--comment");
            assertEquals(2, comment.code());
            assertEquals("<!-- windlass-plan: feature/conflict -->\n" + review, comment.out());
        }
    }

    @Test
    void aSecretsValuesNeverAppearInTheReview() throws Exception {
        String mainPassword = "main-password-4f1c";
        String branchPassword = "branch-password-9d2e";
        String branchToken = "branch-token-7a33";
        String secret = """
                apiVersion: v1
                kind: Secret
                metadata:
                  name: web-credentials
                type: Opaque
                data:
                  password: %s
                """;
        try (TestFleet fleet = settledFleet("apps/web/manifests/secret.yaml", secret.formatted(base64(mainPassword)))) {
            fleet.pushTo("feature/rotate", "rotate", c -> c.write("apps/web/manifests/secret.yaml",
                    secret.formatted(base64(branchPassword)) + "stringData:\n  token: " + branchToken + "\n"));

            Run r = review(fleet, "feature/rotate");
            assertEquals(1, r.code(), r.out() + "\n" + r.err());
            String review = r.out();
            assertTrue(review.contains("| ~ Update | Secret web/web-credentials | web |"), review);
            assertTrue(review.contains("+++ Secret web/web-credentials on eu-1 (Git)"), review);
            assertTrue(review.contains("(redacted"), review);
            for (String value : List.of(mainPassword, branchPassword, branchToken)) {
                for (String form : List.of(value, base64(value))) {
                    assertFalse(review.contains(form), "'" + form + "' is in the review:\n" + review);
                    assertFalse(r.err().contains(form), "'" + form + "' is in the error output:\n" + r.err());
                }
            }
            Run comment = review(fleet, "feature/rotate", "--comment");
            for (String value : List.of(mainPassword, branchPassword, branchToken)) {
                assertFalse(comment.out().contains(value) || comment.out().contains(base64(value)), comment.out());
            }
        }
    }

    static String base64(String s) { return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8)); }

    /** With -o yaml or json the review is data, not the Markdown comment; the exit codes stay those of a review. */
    @Test
    void aReviewAsJsonOrYamlIsTheReviewsDataNotMarkdown() throws Exception {
        try (TestFleet fleet = settledFleet()) {
            fleet.pushTo("feature/x", "web 2.0.0", c -> c.write(DEPLOYMENT_PATH, DEPLOYMENT.formatted("2.0.0")));

            Run json = review(fleet, "feature/x", "-o", "json");
            assertEquals(1, json.code(), json.err());
            var tree = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json.out());
            assertEquals("feature/x", tree.get("ref").asText());
            assertEquals(fleet.head("refs/heads/feature/x"), tree.get("headCommit").asText());
            assertTrue(tree.get("mergeable").asBoolean());
            assertEquals("Update", tree.at("/plan/stages/0/actions/0/operation").asText(), json.out());
            assertFalse(json.out().contains("## Windlass plan"), "not the Markdown comment");

            Run yaml = review(fleet, "feature/x", "-o", "yaml");
            assertEquals(1, yaml.code());
            assertTrue(yaml.out().startsWith("ref: feature/x\n"), yaml.out());
        }
    }
}
