package dev.windlass.engine.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.git.BranchChange;
import dev.windlass.git.CommitOutcome;
import dev.windlass.git.ConfigWriter;
import dev.windlass.git.GitRemote;
import dev.windlass.git.Mirror;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Freeze;
import dev.windlass.policy.parse.RepoParser;
import dev.windlass.policy.source.MapSnapshot;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** windlass suspend / resume against a real Git origin: the commits they push, and the files as the engine then reads them. */
class SuspendCliE2E {
    static final String WEB = """
            # The shop's web frontend. Ask #team-web before changing placement.
            apiVersion: windlass.dev/v1alpha1
            kind: Application
            metadata:
              name: web
              labels:
                tier: frontend   # used by the black-friday freeze
            spec:
              namespace: web
              placement:
                clusterSelector: {matchLabels: {env: prod}}
              syncPolicy:
                prune: true
            """;
    static final String CLUSTER = """
            apiVersion: windlass.dev/v1alpha1
            kind: Cluster
            metadata:
              name: %s
              labels: {env: prod}
            spec:
              connection:
                sandbox: {nodes: 1}
            """;

    @TempDir Path dir;
    Git origin;
    String url;

    @BeforeEach void pushTheFleet() throws Exception {
        origin = Git.init().setBare(true).setDirectory(dir.resolve("origin.git").toFile()).setInitialBranch("main").call();
        url = dir.resolve("origin.git").toUri().toString();
        commitFromElsewhere("fleet", c -> c.write("clusters/eu-1.yaml", CLUSTER.formatted("eu-1")).write("clusters/eu-2.yaml", CLUSTER.formatted("eu-2"))
                .write("apps/web/app.yaml", WEB).write("apps/web/manifests/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\n"));
    }

    @AfterEach void close() { origin.close(); }

    /** The output, error output and exit code of one command line. */
    record Run(int code, String out, String err) {}

    Run windlass(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--repo", url, "--workdir", dir.resolve("cli-mirror").toString()));
        int code = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), all.toArray(String[]::new));
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void suspendAndResumeAnAppEverywhere() throws Exception {
        String before = tip();
        Run suspended = windlass("suspend", "app", "web", "--reason", "checkout errors, investigating", "--author", "Alice <alice@example.com>");
        assertEquals(0, suspended.code(), suspended.err());
        RevCommit commit = commit(tip());
        assertEquals("suspended web in commit " + commit.name().substring(0, 7) + " on main\n", suspended.out());
        assertEquals("windlass: suspend web: checkout errors, investigating (Alice)", commit.getFullMessage());
        assertEquals("Alice", commit.getAuthorIdent().getName());
        assertEquals("alice@example.com", commit.getAuthorIdent().getEmailAddress());
        assertEquals(before, commit.getParent(0).name());
        assertEquals(WEB.replace("""
                    tier: frontend   # used by the black-friday freeze
                """, """
                    tier: frontend   # used by the black-friday freeze
                  annotations:
                    "windlass.dev/suspend-reason": "checkout errors, investigating (Alice)"
                """) + "  suspend: true\n", file("apps/web/app.yaml"), "only the two intended lines are added");

        DesiredState parsed = parseTip();
        Application web = parsed.apps().get("web");
        assertTrue(web.suspend());
        assertEquals("checkout errors, investigating (Alice)", web.annotations().get(Application.ANNOTATION_SUSPEND_REASON));
        assertEquals(List.of(), parsed.diagnostics().stream().map(Object::toString).toList());

        Run again = windlass("suspend", "app", "web", "--reason", "me too", "--author", "Bob <bob@example.com>");
        assertEquals(new Run(0, "web is already suspended; nothing to commit\n", ""), again);
        assertEquals(commit.name(), tip(), "nothing pushed");

        Run resumed = windlass("resume", "app", "web", "--author", "Bob <bob@example.com>");
        assertEquals(0, resumed.code(), resumed.err());
        assertEquals("windlass: resume web", commit(tip()).getFullMessage());
        assertEquals("Bob", commit(tip()).getAuthorIdent().getName());
        assertEquals(WEB, file("apps/web/app.yaml"), "byte for byte as its authors wrote it");
        assertEquals(new Run(0, "web is not suspended; nothing to commit\n", ""), windlass("resume", "app", "web", "--author", "Bob <bob@example.com>"));
    }

    @Test
    void suspendAndResumeAnAppOnOneCluster() throws Exception {
        Run suspended = windlass("suspend", "app", "web", "--cluster", "eu-1", "--reason", "node drain", "--author", "Alice <alice@example.com>");
        assertEquals(0, suspended.code(), suspended.err());
        assertEquals("windlass: suspend web on eu-1: node drain (Alice)", commit(tip()).getFullMessage());
        assertEquals(WEB, file("apps/web/app.yaml"), "the application's file (and revision) is untouched");
        Freeze freeze = parseTip().freezes().get(0);
        assertEquals("suspend-web-on-eu-1", freeze.name());
        assertEquals("freezes/suspend-web-on-eu-1.yaml", freeze.location().path());
        assertEquals(List.of("web"), freeze.applications());
        assertEquals(List.of("eu-1"), freeze.clusterNames());
        assertEquals(null, freeze.schedule(), "open-ended: until resumed");
        assertEquals("node drain (Alice)", freeze.reason());

        Run resumed = windlass("resume", "app", "web", "--cluster", "eu-1", "--author", "Alice <alice@example.com>");
        assertEquals(0, resumed.code(), resumed.err());
        assertEquals("windlass: resume web on eu-1", commit(tip()).getFullMessage());
        assertFalse(files().containsKey("freezes/suspend-web-on-eu-1.yaml"));
        assertEquals(List.of(), parseTip().freezes());
    }

    @Test
    void suspendAndResumeACluster() throws Exception {
        Run suspended = windlass("suspend", "cluster", "eu-2", "--reason", "kernel upgrade", "--author", "Alice <alice@example.com>");
        assertEquals(0, suspended.code(), suspended.err());
        assertEquals("windlass: suspend cluster eu-2: kernel upgrade (Alice)", commit(tip()).getFullMessage());
        assertTrue(parseTip().clusters().get("eu-2").suspend());
        assertFalse(parseTip().clusters().get("eu-1").suspend());
        assertEquals(0, windlass("resume", "cluster", "eu-2", "--author", "Alice <alice@example.com>").code());
        assertEquals(CLUSTER.formatted("eu-2"), file("clusters/eu-2.yaml"));
    }

    @Test
    void mistakesExitWithTwoAndAClearMessage() throws Exception {
        String before = tip();
        assertEquals(new Run(2, "", "no application 'wbe' on branch main\n"),
                windlass("suspend", "app", "wbe", "--reason", "x", "--author", "Alice <alice@example.com>"));
        assertEquals(new Run(2, "", "no cluster 'eu-3' on branch main\n"),
                windlass("suspend", "app", "web", "--cluster", "eu-3", "--reason", "x", "--author", "Alice <alice@example.com>"));
        assertEquals(new Run(2, "", "--reason must be one line saying why (it is recorded in the repo and shown in plans and status)\n"),
                windlass("suspend", "cluster", "eu-1", "--reason", "two\nlines", "--author", "Alice <alice@example.com>"));
        Run noReason = windlass("suspend", "cluster", "eu-1", "--author", "Alice <alice@example.com>");
        assertEquals(2, noReason.code());
        assertTrue(noReason.err().startsWith("Missing required option: '--reason=<reason>'"), noReason.err());
        commitFromElsewhere("flow style", c -> c.write("clusters/eu-1.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Cluster\n"
                + "metadata: {name: eu-1, labels: {env: prod}}\nspec: {connection: {sandbox: {nodes: 1}}}\n"));
        String flow = tip();
        assertEquals(new Run(2, "", "clusters/eu-1.yaml: spec of Cluster eu-1 is written in flow style ({...}); write it as a block to let Windlass edit it\n"),
                windlass("suspend", "cluster", "eu-1", "--reason", "x", "--author", "Alice <alice@example.com>"));
        assertEquals(flow, tip(), "nothing pushed");
        assertFalse(before.equals(flow));
    }

    @Test
    void aCommitPushedMeanwhileIsKeptAndTheSuspensionLandsOnTopOfIt() throws Exception {
        SuspensionEdit edit = new SuspensionEdit(SuspensionEdit.Target.APP, "web", null, true, "checkout errors", new Author("Alice", "alice@example.com"), "main");
        AtomicInteger computed = new AtomicInteger();
        StringWriter out = new StringWriter();
        int code;
        try (Mirror mirror = Mirror.open(dir.resolve("cli-mirror"), GitRemote.anonymous(url))) {
            code = SuspensionCommand.write(new ConfigWriter(mirror, "main"), edit, tip -> {
                if (computed.incrementAndGet() == 1) {
                    // Someone else pushes to main after our mirror fetched the tip and before we push: a change to the
                    // same file, so a suspension computed from the old tip would undo it.
                    commitFromElsewhere("web: own namespace", c -> c.write("apps/web/app.yaml", WEB.replace("namespace: web", "namespace: shop-web")));
                }
                return edit.on(tip);
            }, new PrintWriter(out, true), new PrintWriter(new StringWriter(), true));
        }
        assertEquals(0, code);
        assertEquals(2, computed.get(), "computed again from the new tip");
        List<String> history = history();
        assertEquals(List.of("windlass: suspend web: checkout errors (Alice)", "web: own namespace", "fleet"), history);
        String web = file("apps/web/app.yaml");
        assertTrue(web.contains("  namespace: shop-web\n"), web);
        assertTrue(web.endsWith("  suspend: true\n"), web);
        assertTrue(parseTip().apps().get("web").suspend());
    }

    /** Commits through a mirror of its own, as another person or process would. */
    void commitFromElsewhere(String message, java.util.function.UnaryOperator<BranchChange> edit) {
        try (Mirror other = Mirror.open(dir.resolve("other-mirror"), GitRemote.anonymous(url))) {
            CommitOutcome outcome = new ConfigWriter(other, "main").write(tip -> edit.apply(BranchChange.of(message, "Dev", "dev@example.com")));
            assertTrue(outcome instanceof CommitOutcome.Committed, outcome.toString());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    String tip() throws Exception {
        return origin.getRepository().exactRef("refs/heads/main").getObjectId().name();
    }

    RevCommit commit(String sha) throws Exception {
        try (RevWalk walk = new RevWalk(origin.getRepository())) {
            return walk.parseCommit(ObjectId.fromString(sha));
        }
    }

    List<String> history() throws Exception {
        List<String> messages = new ArrayList<>();
        for (RevCommit c : origin.log().add(ObjectId.fromString(tip())).call()) messages.add(c.getShortMessage());
        return messages;
    }

    Map<String, String> files() throws Exception {
        Repository repo = origin.getRepository();
        Map<String, String> files = new TreeMap<>();
        try (TreeWalk walk = new TreeWalk(repo)) {
            walk.addTree(commit(tip()).getTree());
            walk.setRecursive(true);
            while (walk.next()) files.put(walk.getPathString(), new String(repo.open(walk.getObjectId(0)).getBytes(), StandardCharsets.UTF_8));
        }
        return files;
    }

    String file(String path) throws Exception { return files().get(path); }

    DesiredState parseTip() throws Exception { return RepoParser.parse(MapSnapshot.ofStrings(tip(), files())); }
}
