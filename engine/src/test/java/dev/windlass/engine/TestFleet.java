package dev.windlass.engine;

import dev.windlass.engine.reconcile.Engine;
import dev.windlass.engine.reconcile.PassReport;
import dev.windlass.git.BranchChange;
import dev.windlass.git.CommitOutcome;
import dev.windlass.git.ConfigWriter;
import dev.windlass.git.GitRemote;
import dev.windlass.git.Mirror;
import dev.windlass.sandbox.ClusterSettings;
import dev.windlass.sandbox.Sandbox;
import dev.windlass.sandbox.SandboxCluster;
import dev.windlass.sandbox.sim.Simulator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.revwalk.RevCommit;

/**
 * A real Git origin, a developer who pushes to it, clusters (sandbox, or real control planes), an engine driven by a
 * hand-moved clock: everything an end-to-end test needs, nothing faked. On real control planes the clock still decides
 * what the engine believes about time (tolerations, soak times, deadlines); the clusters' controllers run in real time,
 * and {@link #passLater()} gives them the time they need.
 */
public final class TestFleet implements AutoCloseable {
    public final Path origin;
    public final MutableClock clock = new MutableClock(Instant.parse("2026-11-21T09:00:00Z"));
    public final Sandbox sandbox;
    public final Backend backend;
    public final Engine engine;
    private final Mirror developer;

    /** On the sandbox. */
    public TestFleet(Path dir) throws Exception { this(dir, false); }

    /** @param real on real control planes (started as scenarios name clusters), else on the sandbox */
    public TestFleet(Path dir, boolean real) throws Exception {
        this(dir, real, dev.windlass.applier.cluster.ManagementCluster.NONE);
    }

    /** @param management the cluster the engine runs in, as a Pod's ServiceAccount would reach it */
    public TestFleet(Path dir, boolean real, dev.windlass.applier.cluster.ManagementCluster management) throws Exception {
        this(dir, real ? new ControlPlanes(dir) : null, management);
    }

    /** On these real control planes. */
    TestFleet(Path dir, ControlPlanes planes) throws Exception {
        this(dir, planes, dev.windlass.applier.cluster.ManagementCluster.NONE);
    }

    /** @param planes the real control planes, or null for the sandbox */
    private TestFleet(Path dir, ControlPlanes planes, dev.windlass.applier.cluster.ManagementCluster management) throws Exception {
        origin = dir.resolve("origin.git");
        Git.init().setBare(true).setInitialBranch("main").setDirectory(origin.toFile()).call().close();
        developer = Mirror.open(dir.resolve("developer"), GitRemote.anonymous(origin.toString()));
        sandbox = new Sandbox(ClusterSettings.defaults(), new Simulator(Duration.ofSeconds(2), clock));
        backend = planes != null ? planes : new SandboxBackend(sandbox, clock);
        engine = new Engine(Mirror.open(dir.resolve("engine"), GitRemote.anonymous(origin.toString())), "main", "windlass/status", sandbox, clock,
                System::getenv, dev.windlass.applier.cluster.ClientSettings.DEFAULT, management);
    }

    /**
     * A Cluster object for this fleet's backend: {@code labels} as YAML flow text ({@code "env: prod"}), {@code nodes}
     * nodes of which {@code controlPlaneNodes} control-plane ones, and {@code moreSpec} lines under spec.
     */
    public String clusterYaml(String name, String labels, int nodes, int controlPlaneNodes, String moreSpec) {
        return "apiVersion: windlass.dev/v1alpha1\nkind: Cluster\nmetadata: {name: " + name + ", labels: {" + labels + "}}\nspec:\n"
                + "  connection: " + backend.connection(name, nodes, controlPlaneNodes) + "\n" + moreSpec.indent(2);
    }

    /**
     * The examples repo (examples-repo/), its clusters connected to this fleet's backend with the nodes the examples
     * give them.
     */
    public static UnaryOperator<BranchChange> examples(TestFleet fleet) {
        Path root = Path.of("..", "examples-repo");
        return change -> {
            BranchChange c = folder(root, "").apply(change);
            if (!fleet.backend.real()) return c;
            try (Stream<Path> files = Files.list(root.resolve("clusters"))) {
                for (Path f : files.sorted().toList()) {
                    c = c.write("clusters/" + f.getFileName(), fleet.connectedHere(Files.readString(f)));
                }
                return c;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }

    /** A sandbox Cluster file with its connection replaced by this fleet's backend's, same name and nodes. */
    String connectedHere(String clusterFile) {
        java.util.regex.Matcher name = java.util.regex.Pattern.compile("(?m)^  name: (\\S+)$").matcher(clusterFile);
        java.util.regex.Matcher nodes = java.util.regex.Pattern.compile("(?m)^\\s+nodes: (\\d+)$").matcher(clusterFile);
        java.util.regex.Matcher cp = java.util.regex.Pattern.compile("(?m)^\\s+controlPlaneNodes: (\\d+)$").matcher(clusterFile);
        if (!name.find() || !nodes.find()) throw new IllegalArgumentException("not a sandbox Cluster file:\n" + clusterFile);
        String connection = backend.connection(name.group(1), Integer.parseInt(nodes.group(1)), cp.find() ? Integer.parseInt(cp.group(1)) : 0);
        return clusterFile.replaceAll("(?ms)^  connection:\n(    .*?\n)+", "  connection: " + java.util.regex.Matcher.quoteReplacement(connection) + "\n");
    }

    /** An admin client of a cluster, whichever the backend; the caller closes it. */
    public io.fabric8.kubernetes.client.KubernetesClient client(String cluster) { return backend.client(cluster); }

    /** Pushes one commit to main, as a developer would. */
    public void push(String message, UnaryOperator<BranchChange> edit) throws IOException {
        developer.fetch();
        CommitOutcome out = new ConfigWriter(developer, "main").write(s -> edit.apply(BranchChange.of(message, "Dev", "dev@example.com")));
        if (out instanceof CommitOutcome.Failed f) throw new IllegalStateException("push failed: " + f.reason());
    }

    /** Pushes one commit to {@code branch}, creating it from {@code main}'s head first if it does not exist. */
    public void pushTo(String branch, String message, UnaryOperator<BranchChange> edit) throws IOException {
        if (head("refs/heads/" + branch) == null) setRef("refs/heads/" + branch, head("refs/heads/main"));
        developer.fetch();
        CommitOutcome out = new ConfigWriter(developer, branch).write(s -> edit.apply(BranchChange.of(message, "Dev", "dev@example.com")));
        if (out instanceof CommitOutcome.Failed f) throw new IllegalStateException("push failed: " + f.reason());
    }

    /** The commit a ref of the origin points at, or null. */
    public String head(String ref) throws IOException {
        try (org.eclipse.jgit.lib.Repository repo = new org.eclipse.jgit.storage.file.FileRepositoryBuilder().setGitDir(origin.toFile()).build()) {
            ObjectId id = repo.resolve(ref);
            return id == null ? null : id.name();
        }
    }

    /** Points a ref of the origin at a commit, as a host does for {@code refs/pull/N/head}. */
    public void setRef(String ref, String commit) throws IOException {
        try (org.eclipse.jgit.lib.Repository repo = new org.eclipse.jgit.storage.file.FileRepositoryBuilder().setGitDir(origin.toFile()).build()) {
            org.eclipse.jgit.lib.RefUpdate u = repo.updateRef(ref);
            u.setNewObjectId(ObjectId.fromString(commit));
            u.setForceUpdate(true);
            org.eclipse.jgit.lib.RefUpdate.Result r = u.update();
            if (r == org.eclipse.jgit.lib.RefUpdate.Result.LOCK_FAILURE || r == org.eclipse.jgit.lib.RefUpdate.Result.REJECTED) {
                throw new IOException("cannot set " + ref + ": " + r);
            }
        }
    }

    /** Merges {@code branch} into main with a merge commit, as the host's merge button does. */
    public String merge(String branch) throws IOException {
        try (org.eclipse.jgit.lib.Repository repo = new org.eclipse.jgit.storage.file.FileRepositoryBuilder().setGitDir(origin.toFile()).build();
             org.eclipse.jgit.revwalk.RevWalk walk = new org.eclipse.jgit.revwalk.RevWalk(repo);
             org.eclipse.jgit.lib.ObjectInserter ins = repo.newObjectInserter()) {
            RevCommit main = walk.parseCommit(repo.resolve("refs/heads/main"));
            RevCommit head = walk.parseCommit(repo.resolve("refs/heads/" + branch));
            org.eclipse.jgit.merge.ResolveMerger m = (org.eclipse.jgit.merge.ResolveMerger) org.eclipse.jgit.merge.MergeStrategy.RECURSIVE.newMerger(repo, true);
            if (!m.merge(main, head)) throw new IOException("conflicts merging " + branch);
            org.eclipse.jgit.lib.CommitBuilder c = new org.eclipse.jgit.lib.CommitBuilder();
            c.setTreeId(m.getResultTreeId());
            c.setParentIds(main, head);
            org.eclipse.jgit.lib.PersonIdent who = new org.eclipse.jgit.lib.PersonIdent("Dev", "dev@example.com");
            c.setAuthor(who);
            c.setCommitter(who);
            c.setMessage("Merge " + branch + "\n");
            ObjectId id = ins.insert(c);
            ins.flush();
            setRef("refs/heads/main", id.name());
            return id.name();
        }
    }

    public static UnaryOperator<BranchChange> folder(Path root, String prefix) {
        return change -> {
            try (Stream<Path> files = Files.walk(root)) {
                for (Path p : files.filter(Files::isRegularFile).toList()) {
                    change = change.write(prefix + root.relativize(p).toString().replace('\\', '/'), Files.readAllBytes(p));
                }
                return change;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }

    /**
     * Runs a pass, once the engine's watches hold what the test just did to the clusters behind its back (ticks,
     * edits with another client). A watch that fails to catch up within half a minute fails the test: 10 s was too
     * short for real control planes on a machine whose cores other work also used.
     */
    public PassReport pass() throws IOException {
        if (!engine.awaitWatchesCurrent(Duration.ofSeconds(30))) throw new AssertionError("the engine's watches did not catch up with the clusters");
        return engine.reconciler().reconcile();
    }

    /** Lets time pass (workloads become ready: simulated on the sandbox, by the real controllers otherwise) and runs a pass. */
    public PassReport passLater() throws IOException {
        return passAfter(Duration.ofSeconds(5));
    }

    /** Moves the engine's clock on by {@code step}, lets the clusters catch up, and runs a pass. */
    public PassReport passAfter(Duration step) throws IOException {
        backend.advance(clock, step);
        return pass();
    }

    /** Runs passes, moving time on, until one changes nothing at all and no rollout is under way. */
    public PassReport settle() throws IOException {
        PassReport r = pass();
        for (int i = 0; i < 80; i++) {
            boolean rolling = engine.reconciler().state().apps().values().stream().anyMatch(a -> a.rollout() != null && a.rollout().active());
            if (!r.committed() && !r.plan().hasChanges() && r.plan().held().isEmpty() && !rolling) return r;
            r = passLater();
        }
        throw new AssertionError("did not settle; last plan:\n" + r.plan());
    }

    public SandboxCluster cluster(String name) { return sandbox.cluster(name); }

    public void resetRequestCounts() { sandbox.clusters().forEach(c -> c.requests().reset()); }

    public long writes() { return sandbox.clusters().stream().mapToLong(c -> c.requests().writes()).sum(); }

    public List<RevCommit> statusLog() throws Exception {
        try (Git git = Git.open(origin.toFile())) {
            ObjectId tip = git.getRepository().resolve("refs/heads/windlass/status");
            if (tip == null) return List.of();
            return java.util.stream.StreamSupport.stream(git.log().add(tip).call().spliterator(), false).toList();
        }
    }

    public String statusFile(String path) throws Exception {
        try (Git git = Git.open(origin.toFile())) {
            ObjectId id = git.getRepository().resolve("refs/heads/windlass/status:" + path);
            return id == null ? null : new String(git.getRepository().open(id).getBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    @Override public void close() {
        engine.close();
        backend.close();
        sandbox.close();
        developer.close();
    }
}
