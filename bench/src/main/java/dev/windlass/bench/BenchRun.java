package dev.windlass.bench;

import static dev.windlass.bench.Figures.Unit.BYTES;
import static dev.windlass.bench.Figures.Unit.COUNT;
import static dev.windlass.bench.Figures.Unit.PER_SECOND;

import dev.windlass.applier.cluster.ClientSettings;
import dev.windlass.engine.reconcile.CommitRevisions;
import dev.windlass.engine.reconcile.Kinds;
import dev.windlass.engine.reconcile.PassReport;
import dev.windlass.engine.reconcile.Reconciler;
import dev.windlass.engine.review.ReviewPass;
import dev.windlass.git.BranchChange;
import dev.windlass.git.GitRemote;
import dev.windlass.git.Mirror;
import dev.windlass.git.MirrorStorage;
import dev.windlass.git.RetryPolicy;
import dev.windlass.git.StatusWriter;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.observe.ObservedState;
import dev.windlass.policy.parse.RepoParser;
import dev.windlass.policy.plan.Plan;
import dev.windlass.policy.plan.Planner;
import dev.windlass.policy.remediation.Remediations;
import dev.windlass.policy.state.EngineState;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.TreeMap;

/**
 * One benchmark run on fresh clusters and a fresh origin: the engine is started cold, syncs the fleet, and then
 * goes through the passes a running engine sees, each measured as the user would see it: wall time, files
 * parsed, requests the clusters received.
 */
final class BenchRun {
    private static final String MAIN = "main";
    private static final String STATUS = "windlass/status";

    private final FleetShape shape;
    private final int statusHistoryLimit;
    private final Clusters clusters;
    private final ClientSettings client;
    private final Path dir;
    private final Figures figures;
    private final Memory memory;
    private final PrintStream log;
    private final boolean engineWarm;
    private java.util.List<io.fabric8.kubernetes.api.model.GenericKubernetesResource> placed = java.util.List.of();

    /**
     * @param engineWarm the engine's code already ran in this JVM (an earlier run): its first sync is then that of a
     *                   running engine given new clusters, not of one just started
     */
    BenchRun(FleetShape shape, int statusHistoryLimit, Clusters clusters, ClientSettings client, Path dir, Figures figures, Memory memory,
             PrintStream log, boolean engineWarm) {
        this.shape = shape;
        this.statusHistoryLimit = statusHistoryLimit;
        this.clusters = clusters;
        this.client = client;
        this.dir = dir;
        this.figures = figures;
        this.memory = memory;
        this.log = log;
        this.engineWarm = engineWarm;
    }

    /**
     * @param statusPasses eventful passes to run at the end to see how the status branch grows; 0 for none
     * @param hungClusterPushes after the sync, only the hung-cluster scenario with this many pushes each way
     *                          ({@link HungCluster}); 0 for the full run
     * @param hungFirst         in that scenario, the pushes with the hang come first
     */
    void run(int statusPasses, int hungClusterPushes, boolean hungFirst) throws Exception {
        SyntheticRepo repo = new SyntheticRepo(shape, clusters::connectionYaml, statusHistoryLimit);
        try (Origin origin = Origin.create(dir.resolve("origin.git"));
             BenchFleet fleet = new BenchFleet(clusters, client)) {
            origin.commit(MAIN, null, repo.files(), "Synthetic fleet: " + shape);
            memory.resetPeaks();
            long rssAtStart = Memory.rssBytes();
            Clusters.Counts start = clusters.counts();

            Mirror mirror = Mirror.open(dir.resolve("engine"), GitRemote.anonymous(origin.dir().toString()));
            StatusWriter status = new StatusWriter(mirror, STATUS, RetryPolicy.DEFAULT);
            Reconciler reconciler = new Reconciler(mirror, MAIN, status, fleet, Clock.systemUTC());
            // In methods of their own, so that what they parsed, planned and applied is garbage before the live heap
            // is measured: what stays is what the engine keeps.
            long clone = coldStart(mirror, reconciler, fleet);
            long sync0 = System.nanoTime();
            initialSync(reconciler);
            long sync = System.nanoTime() - sync0;
            Settled settledAt = settle(reconciler, sync0);
            PassReport settled = settledAt.last();
            figures.addNanos("  until settled: two passes in a row with nothing to change or record (1 s apart)", settledAt.quietNanos());
            if (settledAt.healthyNanos() >= 0) {
                figures.addNanos("  until healthy: every app Healthy on every cluster", settledAt.healthyNanos());
            }
            figures.addNanos("start to all applied: clone + first pass", clone + sync);
            if (settledAt.healthyNanos() >= 0) {
                figures.addNanos("start to all healthy: clone + passes until all Healthy", clone + settledAt.healthyNanos());
            }
            figures.add("heap: peak in use, cold start to synced", BYTES, memory.peakHeapBytes());
            long live = Memory.liveHeapBytes();
            figures.add("heap: live after sync (after full GC)", BYTES, live);
            log.printf("  live heap after sync %.1f MiB%n", live / 1048576.0);
            // The JVM keeps heap it once committed, so a later run in the same process starts from the earlier peak.
            figures.add("RSS: peak, cold start to synced", BYTES, Memory.peakRssBytes());
            figures.add("  RSS when the run started", BYTES, rssAtStart);
            figures.add("threads: live in this JVM after sync", COUNT, java.lang.management.ManagementFactory.getThreadMXBean().getThreadCount());
            if (hungClusterPushes > 0) {
                new HungCluster(shape, repo, origin, mirror, reconciler, clusters, figures, log).measure(hungClusterPushes, hungFirst);
                mirror.close();
                return;
            }

            // No-op passes: nothing changed in Git or on the clusters.
            Clusters.Counts before;
            for (int i = 0; i < 3; i++) {
                before = clusters.counts();
                long trips = mirror.roundTrips();
                long n0 = System.nanoTime();
                PassReport noop = reconciler.reconcile();
                long n1 = System.nanoTime();
                Clusters.Counts c = clusters.counts().minus(before);
                figures.addNanos("no-op pass", n1 - n0);
                figures.add("  Git round trips (goal 1)", COUNT, mirror.roundTrips() - trips);
                figures.add("  API writes (must be 0)", COUNT, c.writes());
                figures.add("  API reads per cluster", COUNT, (double) c.reads() / shape.clusters());
                figures.add("  files parsed", COUNT, noop.filesParsed());
                figures.add("  renders (Kustomize or Helm runs, must be 0)", COUNT, noop.renders());
                figures.add("  objects re-planned (compared afresh)", COUNT, noop.planning().objectsPlanned());
                figures.add("  status commits", COUNT, noop.committed() ? 1 : 0);
                // A no-op pass should plan nothing; when it does, say what, so the figure can be explained.
                noop.plan().actions().stream().limit(3).forEach(a -> log.printf("  no-op pass planned: %s (%s) %s%n", a.describe(), a.reason().text(), a.fields()));
            }

            // One file changes: one app's ConfigMap.
            int app = shape.apps() / 2;
            for (int generation = 1; generation <= 3; generation++) {
                origin.commit(MAIN, null, Map.of(repo.editedPath(app), repo.edited(app, generation)), "Change one file");
                before = clusters.counts();
                long i0 = System.nanoTime();
                PassReport inc = reconciler.reconcile();
                long i1 = System.nanoTime();
                Clusters.Counts c = clusters.counts().minus(before);
                figures.addNanos("incremental pass: one file changed", i1 - i0);
                figures.add("  files parsed", COUNT, inc.filesParsed());
                figures.add("  renders (Kustomize or Helm runs)", COUNT, inc.renders());
                figures.add("  actions planned (objects to change)", COUNT, inc.plan().actions().size());
                figures.add("  objects re-planned (compared afresh)", COUNT, inc.planning().objectsPlanned());
                figures.add("  objects whose last plan was reused", COUNT, inc.planning().objectsReused());
                figures.add("  API writes", COUNT, c.writes());
                settled = inc;
            }

            // Git: polling with nothing new, then with one new commit (fetch plus the diff of what changed).
            for (int i = 0; i < 5; i++) {
                long g0 = System.nanoTime();
                mirror.fetch();
                figures.addNanos("git poll, nothing new (fetch)", System.nanoTime() - g0);
            }
            for (int i = 0; i < 3; i++) {
                String old = mirror.resolve(MAIN).orElseThrow();
                origin.commit(MAIN, null, Map.of(repo.editedPath(i), repo.edited(i, 10 + i)), "Another file");
                long g0 = System.nanoTime();
                mirror.fetch();
                String now = mirror.resolve(MAIN).orElseThrow();
                int changed = mirror.changes(old, now).paths().size();
                figures.addNanos("git poll, one new commit (fetch + diff)", System.nanoTime() - g0);
                figures.add("  files in the diff", COUNT, changed);
            }
            settled = reconciler.reconcile();

            // A pull request touching 1% of the apps, planned as merged into main and recorded on the status branch.
            ReviewPass reviews = new ReviewPass(mirror, MAIN, status, fleet, Clock.systemUTC(), () -> {
                try {
                    return reconciler.state();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }, name -> null);
            int touched = Math.max(1, shape.apps() / 100);
            for (int pr = 0; pr < 3; pr++) {
                Map<String, byte[]> edit = new TreeMap<>();
                for (int a = 0; a < touched; a++) edit.put(repo.editedPath(a * 100 % shape.apps()), repo.edited(a * 100 % shape.apps(), 100 + pr));
                origin.commit("review/one-percent-" + pr, MAIN, edit, "Touch 1% of the apps");
                before = clusters.counts();
                long r0 = System.nanoTime();
                mirror.fetch();
                int planned = reviews.run(settled.source(), settled.desired()).size();
                figures.addNanos("plan of a pull request touching 1% of apps", System.nanoTime() - r0);
                figures.add("  reviews planned (fetch + plan + record)", COUNT, planned);
                figures.add("  API writes (must be 0; dry runs aside)", COUNT, clusters.counts().minus(before).writes());
            }

            // The status commit alone: lease, commit, push, as every eventful pass does once.
            for (int i = 0; i < 5; i++) {
                long c0 = System.nanoTime();
                status.write(BranchChange.of("bench: status write probe", "Windlass", "windlass@localhost")
                        .write("bench/probe.yaml", "probe: " + i + "\n"));
                figures.addNanos("status commit (one file, lease + commit + push)", System.nanoTime() - c0);
            }

            if (statusPasses > 0) statusGrowth(repo, origin, mirror, reconciler, statusPasses);

            // Baselines, on the same clusters, after the engine is done with them (the naive loop rewrites its objects).
            Map<String, byte[]> files = repo.files();
            Baselines.parseFloor(files, figures);
            warmParse(mirror);
            var objects = shape.workload() == Workload.RENDERED
                    ? Baselines.objects(dev.windlass.engine.render.AppRendering.shared().read(mirror.snapshot(mirror.resolve(MAIN).orElseThrow())),
                            SyntheticRepo.cluster(0))
                    : Baselines.objects(files);
            Baselines.roundTripFloor(clusters, objects, figures);
            if (client.inFlight() > 1) Baselines.roundTripFloorInFlight(clusters, objects, client.inFlight(), figures);
            Baselines.naiveLoop(clusters, objects, figures);
            placed = objects;
            figures.add("API requests, whole run", COUNT, clusters.counts().minus(start).reads() + clusters.counts().minus(start).writes());
            mirror.close();
        }
    }

    /** The objects every cluster got, each in its app's namespace, once the full scenario has run; empty before. */
    java.util.List<io.fabric8.kubernetes.api.model.GenericKubernetesResource> placed() { return placed; }

    /**
     * Clone, read the (empty) status branch, parse everything, observe every cluster, plan: nothing applied.
     * Returns the clone's time, the part of a start the first pass does not do again.
     */
    private long coldStart(Mirror mirror, Reconciler reconciler, BenchFleet fleet) throws IOException {
        long t0 = System.nanoTime();
        mirror.fetch();
        String head = mirror.resolve(MAIN).orElseThrow();
        long tParse = System.nanoTime();
        DesiredState desired = dev.windlass.engine.render.AppRendering.shared().read(mirror.snapshot(head));
        long parsed = System.nanoTime();
        EngineState state = reconciler.state();
        ObservedState observed = fleet.observe(Kinds.toObserve(desired, state), Remediations.watched(desired));
        long observedAt = System.nanoTime();
        Plan plan = Planner.plan(desired, observed, state, new CommitRevisions(mirror), Clock.systemUTC().instant());
        long t1 = System.nanoTime();
        figures.addNanos("cold start: clone + first full plan", t1 - t0);
        figures.addNanos("  of which clone", tParse - t0);
        figures.addNanos("  of which parse (all files)", parsed - tParse);
        figures.addNanos("  of which observe (all clusters)", observedAt - parsed);
        figures.addNanos("  of which plan", t1 - observedAt);
        figures.add("  actions in the first plan", COUNT, plan.actions().size());
        log.printf("  cold start %.0f ms, %d actions planned%n", (t1 - t0) / 1e6, plan.actions().size());
        return tParse - t0;
    }

    /**
     * The cold start's parse again, in the same warmed-up JVM, with nothing cached: what parsing costs once the JIT has
     * compiled it and every class is loaded, to tell warm-up from work in the cold start's parse.
     */
    private void warmParse(Mirror mirror) throws IOException {
        String head = mirror.resolve(MAIN).orElseThrow();
        for (int run = 0; run < 3; run++) {
            long t0 = System.nanoTime();
            RepoParser.parse(mirror.snapshot(head));
            figures.addNanos(Report.WARM_PARSE, System.nanoTime() - t0);
        }
    }

    /** The first pass, which applies everything. */
    private void initialSync(Reconciler reconciler) throws IOException {
        Clusters.Counts before = clusters.counts();
        CpuTime.Snapshot cpu0 = CpuTime.now();
        long s0 = System.nanoTime();
        PassReport sync = reconciler.reconcile();
        long s1 = System.nanoTime();
        CpuTime.Snapshot cpu1 = CpuTime.now();
        Clusters.Counts syncCounts = clusters.counts().minus(before);
        long failures = sync.applied().failures();
        figures.addNanos("initial sync: first pass, all objects applied", s1 - s0);
        figures.add("  objects applied per second", PER_SECOND, shape.placedObjects() / ((s1 - s0) / 1e9));
        figures.add("  API writes", COUNT, syncCounts.writes());
        figures.add("  API reads", COUNT, syncCounts.reads());
        figures.add("  failed actions", COUNT, failures);
        CpuTime.Used cpu = CpuTime.between(cpu0, cpu1);
        if (CpuTime.available()) CpuTime.report(figures, cpu);
        if (engineWarm) figures.addNanos(Report.SYNC_WARM, s1 - s0);
        log.printf("  initial sync %.0f ms, %d writes, %d failed%n", (s1 - s0) / 1e6, syncCounts.writes(), failures);
        if (CpuTime.available()) {
            log.printf("  CPU in it: engine JVM %.2f s (its JIT %.2f s, its GC %.2f s), clusters %.2f s; %.2f cores busy%n", cpu.jvmNanos() / 1e9,
                    cpu.jitNanos() / 1e9, cpu.gcNanos() / 1e9, cpu.childrenNanos() / 1e9, cpu.coresBusy());
        }
        // Failures are reported by what they said, so a figure with failures can be explained.
        sync.applied().results().stream().filter(r -> !r.succeeded()).map(r -> r.message()).distinct().limit(3)
                .forEach(m -> log.printf("  initial sync failure: %s%n", m));
    }

    /** Passes that each change one app, so each makes a status commit; how the status branch grows with them. */
    private void statusGrowth(SyntheticRepo repo, Origin origin, Mirror mirror, Reconciler reconciler, int passes) throws IOException {
        long[] tree0 = origin.tipTree(STATUS);
        int commits0 = origin.commitCount(STATUS);
        long disk0 = origin.diskBytes();
        long total = 0;
        int committed = 0;
        int failed = 0;
        for (int p = 0; p < passes; p++) {
            int app = p % shape.apps();
            origin.commit(MAIN, null, Map.of(repo.editedPath(app), repo.edited(app, 1000 + p)), "Pass " + p);
            long t0 = System.nanoTime();
            try {
                PassReport r = reconciler.reconcile();
                if (r.committed()) committed++;
            } catch (IOException e) {
                // As the daemon does: the pass failed, the next one starts from what was recorded.
                failed++;
                log.printf("  status growth: pass %d failed: %s%n", p, e);
            }
            total += System.nanoTime() - t0;
            if ((p + 1) % 100 == 0) log.printf("  status growth: %d/%d passes%n", p + 1, passes);
        }
        long[] tree1 = origin.tipTree(STATUS);
        figures.add("status branch: eventful passes run", COUNT, passes);
        figures.add("  mean pass time", Figures.Unit.MS, total / 1e6 / passes);
        figures.add("  status commits made", COUNT, committed);
        figures.add("  passes that failed (and were retried by the next)", COUNT, failed);
        figures.add("  commits on the branch, before", COUNT, commits0);
        figures.add("  commits on the branch, after", COUNT, origin.commitCount(STATUS));
        figures.add("  tip tree files, before", COUNT, tree0[0]);
        figures.add("  tip tree files, after", COUNT, tree1[0]);
        figures.add("  tip tree bytes, before", BYTES, tree0[1]);
        figures.add("  tip tree bytes, after", BYTES, tree1[1]);
        figures.add("  origin on disk, before (loose objects)", BYTES, disk0);
        figures.add("  origin on disk, after (loose objects)", BYTES, origin.diskBytes());
        MirrorStorage engine = mirror.storage();
        figures.add("  engine's mirror after: packs", COUNT, engine.packs());
        figures.add("  engine's mirror after: loose objects", COUNT, engine.looseObjects());
        figures.add("  engine's mirror: compactions during the run", COUNT, engine.compactions());
        // What a Git host keeps once its own GC ran: the figure that grows with history.
        long g0 = System.nanoTime();
        origin.gc();
        figures.addNanos("  origin GC (as a Git host would run it)", System.nanoTime() - g0);
        figures.add("  origin's pack after its GC (reachable history)", BYTES, origin.packBytes());
    }

    /**
     * The last pass of {@link #settle}, how long settling took, and how long from the start of the first pass until a
     * pass found every app Healthy on every cluster (-1 if none did).
     */
    private record Settled(PassReport last, long quietNanos, long healthyNanos) {}

    /**
     * Passes 1 s apart until two in a row have nothing to change or record, at most {@value #SETTLE_PASSES}. The
     * sandbox's simulated controllers move workloads on every second, so one quiet pass can fall between two of their
     * steps; two cannot. On real control planes the controllers and kubelets move them, and their statuses reach the
     * engine through its watches. Also notes when every app is first Healthy on every cluster.
     */
    private Settled settle(Reconciler reconciler, long syncStart) throws IOException {
        long healthy = allHealthy(reconciler.state()) ? System.nanoTime() - syncStart : -1;
        long t0 = System.nanoTime();
        PassReport r = reconciler.reconcile();
        if (healthy < 0 && allHealthy(reconciler.state())) healthy = System.nanoTime() - syncStart;
        int quiet = quiet(r) ? 1 : 0;
        long quietNanos = -1;
        for (int i = 0; i < SETTLE_PASSES && (quiet < 2 || healthy < 0); i++) {
            sleep(1000);
            r = reconciler.reconcile();
            if (healthy < 0 && allHealthy(reconciler.state())) healthy = System.nanoTime() - syncStart;
            quiet = quiet(r) ? quiet + 1 : 0;
            if (quiet == 2 && quietNanos < 0) quietNanos = System.nanoTime() - t0;
        }
        if (quietNanos < 0) quietNanos = System.nanoTime() - t0;
        if (healthy < 0) log.printf("  not every app Healthy after %d passes: %s%n", SETTLE_PASSES, healthSummary(reconciler.state()));
        return new Settled(r, quietNanos, healthy);
    }

    private static final int SETTLE_PASSES = 120;

    /** Whether every app of the fleet is recorded Healthy on every cluster it is placed on. */
    private boolean allHealthy(EngineState state) {
        if (state.apps().size() < shape.apps()) return false;
        return state.apps().values().stream().allMatch(a -> a.targets().size() == shape.clusters()
                && a.targets().stream().allMatch(t -> t.health() == dev.windlass.policy.state.Health.Healthy));
    }

    /** Targets by health, and one message of a target that is not Healthy. */
    private static String healthSummary(EngineState state) {
        Map<String, Integer> byHealth = new TreeMap<>();
        String example = "";
        for (var app : state.apps().values()) {
            for (var t : app.targets()) {
                byHealth.merge(t.health().name(), 1, Integer::sum);
                if (example.isEmpty() && t.health() != dev.windlass.policy.state.Health.Healthy) example = app.name() + " on " + t.cluster() + ": " + t.message();
            }
        }
        return byHealth + (example.isEmpty() ? "" : "; e.g. " + example);
    }

    private static boolean quiet(PassReport r) { return !r.committed() && !r.plan().hasChanges(); }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
