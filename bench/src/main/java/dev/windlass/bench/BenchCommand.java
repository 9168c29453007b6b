package dev.windlass.bench;

import dev.windlass.applier.cluster.ClientSettings;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code windlass bench}: generates a synthetic fleet, runs the engine against it and prints the figures. */
@Command(name = "windlass bench", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Generates a synthetic config repo and fleet, runs the engine against it and prints median, min and max"
                + " of each figure over the runs, with the baselines measured in the same run.")
public final class BenchCommand implements Callable<Integer> {

    @Option(names = "--apps", split = ",", description = "Applications; several sizes (100,1000,5000) print growth ratios."
            + " Default: 1000; 200 with --real; 100 with --scenario hung-cluster.")
    List<Integer> apps;

    @Option(names = "--clusters", description = "Clusters; every app is placed on every cluster. Default: 20, or 3 with --real.")
    Integer clusters;

    @Option(names = "--workload", defaultValue = "web-service",
            description = "What each app ships: web-service (ServiceAccount, ConfigMap, Secret, Deployment of 1 replica, Service)"
                    + " or flux-benchmark (the shape of a widely published GitOps benchmark: a Deployment scaled to 0, a ServiceAccount,"
                    + " a Service and an Ingress) or rendered (half the apps a Kustomize overlay of a shared base, half a shared Helm"
                    + " chart with per-cluster values, rendered by the real tools; 4 objects). Default: ${DEFAULT-VALUE}.")
    String workload;

    @Option(names = "--objects-per-app", description = "Objects per application (default: 5; flux-benchmark and rendered have 4).")
    Integer objectsPerApp;

    @Option(names = "--scenario", defaultValue = "full",
            description = "full: every figure and baseline. hung-cluster: after the sync, push to applied on the clusters that"
                    + " answer, with none hung and with the last cluster hung (accepting connections, answering nothing; odd runs"
                    + " measure without the hang first, even runs with it first). dashboard: the dashboard's fleet page for the fleet"
                    + " (every app applied on every cluster, as the status records it) loaded in headless chromium, runs times each page."
                    + " large-renders: the engine in a JVM of its own with each --heap, on a real control plane, against a chart that"
                    + " renders 50 MiB, ten that render 8 MiB and a small app: whether it stays up, what it applies, its peak RSS."
                    + " trust: every app's Secret encrypted by sops (age), every applied commit signed (SSH) and checked, an Alert to a"
                    + " local webhook: sops runs, signature checks and alerts sent per pass, a no-op pass above all (default 100 apps,"
                    + " 3 clusters)."
                    + " side-by-side: Windlass as `windlass run` in a process of its own, and with --peer the peer engine after it, each on"
                    + " a fresh real control plane with the published benchmark's shape (default 100 apps, 1 cluster): start to first"
                    + " object and to all applied, push to applied, writes from the audit log, CPU, Git requests and peak RSS."
                    + " Default: ${DEFAULT-VALUE}.")
    String scenario;

    @Option(names = "--peer", description = "flux: run the side-by-side scenario with the GitOps toolkit's source-controller and"
            + " kustomize-controller as the peer (built pinned by scripts/flux-controllers.sh, minutes the first time), with one source"
            + " for the repo and with one source per app (see --peer-sources).")
    String peer;

    @Option(names = "--peer-sources", defaultValue = "both",
            description = "With --peer flux: which of the peer's set-ups run: one (one source for the repo, its fastest and smallest),"
                    + " per-app (one source per app) or both (default: ${DEFAULT-VALUE}). At 1,000 apps the per-app set-up takes over an hour.")
    String peerSources;

    @Option(names = "--interval", defaultValue = "5s", description = "The engine's polling interval in the side-by-side scenario (default: ${DEFAULT-VALUE}).")
    String interval;

    @Option(names = "--settle", defaultValue = "0s",
            description = "In the side-by-side scenario, how long each engine stays idle after its first sync before its idle minute is"
                    + " measured (e.g. 20m): the minute right after a sync is the default; a quiet day's minute comes once the JIT has"
                    + " compiled the idle passes' code (default: ${DEFAULT-VALUE}).")
    String settle;

    @Option(names = "--engine-jvm", description = "JVM flags for the engine's process in the side-by-side scenario, after ./windlass's own"
            + " (space-separated, e.g. \"-Xmx256m -XX:+UseSerialGC\").")
    String engineJvm;

    @Option(names = "--heap", split = ",", defaultValue = "512m,768m",
            description = "The engine's heaps in the large-renders scenario (-Xmx; 768m is deploy/'s 1 GiB limit at its 75%% of the"
                    + " memory; default: ${DEFAULT-VALUE}).")
    List<String> heaps;

    @Option(names = "--pushes", defaultValue = "10", description = "Pushes each way in the hung-cluster scenario (default: ${DEFAULT-VALUE}).")
    int pushes;

    @Option(names = "--runs", defaultValue = "3", description = "Runs per size, each on fresh clusters and a fresh origin (default: ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--status-passes", defaultValue = "0",
            description = "Eventful passes, in the first run of each size, to show how the status branch grows (default: ${DEFAULT-VALUE}).")
    int statusPasses;

    @Option(names = "--status-history-limit", defaultValue = "1000",
            description = "Settings spec.statusHistoryLimit of the synthetic repo: commits the status branch keeps (default: ${DEFAULT-VALUE}, the engine's default).")
    int statusHistoryLimit;

    @Option(names = "--real", description = "Real control planes (etcd, kube-apiserver, kube-controller-manager, kube-scheduler and kwok"
            + " nodes, built by scripts/kube-test-env.sh) instead of sandbox clusters.")
    boolean real;

    @Option(names = "--cluster-heap", defaultValue = "8g", description = "Heap of the JVM that runs the sandbox clusters (default: ${DEFAULT-VALUE}).")
    String clusterHeap;

    @Option(names = "--in-flight", description = "Writes in flight at once per cluster while the engine applies a plan, as"
            + " windlass run --in-flight (default: the engine's, ${DEFAULT-VALUE}). The round-trip floor is also measured with"
            + " as many GETs in flight per cluster.")
    int inFlight = ClientSettings.IN_FLIGHT;

    @Option(names = "--http2", negatable = true, defaultValue = "false", fallbackValue = "true",
            description = "Offer HTTP/2 to API servers over TLS, as windlass run --http2 (default: off; only --real clusters speak TLS).")
    boolean http2;

    @Option(names = "--work", description = "Where origins and clones go; kept there for inspection (default: a new temporary directory, deleted run by run).")
    Path work;

    /** Where the figures go; tests read them from here. */
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);

    public static void main(String[] args) {
        // Warnings only, on stderr: the engine's own logback.xml is on the class path too and would log every pass.
        System.setProperty("logback.configurationFile", "bench-logback.xml");
        System.exit(new CommandLine(new BenchCommand()).execute(args));
    }

    @Override public Integer call() throws Exception {
        Workload shapeOf;
        try {
            shapeOf = Workload.of(workload);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(new CommandLine(this), e.getMessage());
        }
        if (peer != null || scenario.equals("side-by-side")) return sideBySide();
        if (scenario.equals("large-renders")) {
            Path root = work == null ? Files.createTempDirectory("windlass-bench") : Files.createDirectories(work);
            new LargeRenders(heaps, out).run(root);
            return 0;
        }
        boolean hung = switch (scenario) {
            case "full", "dashboard", "trust" -> false;
            case "hung-cluster" -> true;
            default -> throw new CommandLine.ParameterException(new CommandLine(this), "no scenario " + scenario
                    + "; full, hung-cluster, dashboard, large-renders or trust");
        };
        if (scenario.equals("trust")) return trust(shapeOf);
        List<Integer> sizes = apps != null ? apps : List.of(hung ? 100 : real ? 200 : 1000);
        int clusterCount = clusters != null ? clusters : real ? 3 : 20;
        int objects = objectsPerApp != null ? objectsPerApp : shapeOf.defaultObjects();
        if (!shapeOf.allows(objects)) {
            throw new CommandLine.ParameterException(new CommandLine(this), "the " + shapeOf.cli() + " workload has 4 objects per app, not " + objects);
        }
        if (inFlight < 1) throw new CommandLine.ParameterException(new CommandLine(this), "--in-flight must be at least 1");
        if (hung && clusterCount < 2) throw new CommandLine.ParameterException(new CommandLine(this), "the hung-cluster scenario needs at least 2 clusters");
        if (scenario.equals("dashboard")) {
            for (int size : sizes) new DashboardLoad(new FleetShape(size, clusterCount, objects, shapeOf), runs, out).run();
            return 0;
        }
        boolean temporary = work == null;
        Path root = temporary ? Files.createTempDirectory("windlass-bench") : Files.createDirectories(work);
        List<Report.Size> results = new ArrayList<>();
        try (Memory memory = new Memory()) {
            for (int size : sizes) {
                FleetShape shape = new FleetShape(size, clusterCount, objects, shapeOf);
                Figures figures = new Figures();
                String where = "";
                for (int run = 1; run <= runs; run++) {
                    out.printf("%s, run %d of %d%n", shape, run, runs);
                    Path dir = root.resolve(size + "-apps-run-" + run);
                    List<io.fabric8.kubernetes.api.model.GenericKubernetesResource> placed;
                    try (Clusters fleet = clusters(real, clusterCount, shape, Files.createDirectories(dir))) {
                        where = fleet.describe();
                        BenchRun benchRun = new BenchRun(shape, statusHistoryLimit, fleet, ClientSettings.DEFAULT.withConcurrency(inFlight, http2), dir,
                                figures, memory, out, run > 1);
                        benchRun.run(run == 1 ? statusPasses : 0, hung ? pushes : 0, run % 2 == 0);
                        placed = benchRun.placed();
                    }
                    if (!placed.isEmpty()) {
                        // The naive loop's first pass needs clusters nobody wrote to: a new set, alone on the machine.
                        out.println("  naive loop's first pass, on new clusters");
                        try (Clusters fresh = clusters(real, clusterCount, shape, Files.createDirectories(dir.resolve("naive")))) {
                            Baselines.naiveFirstPass(fresh, placed, figures);
                        }
                        if (run == 1) {
                            // And once in a JVM of its own, new like the first run's engine: the cold against the cold.
                            out.println("  naive loop's first pass, on new clusters, in a new JVM");
                            try (Clusters fresh = clusters(real, clusterCount, shape, Files.createDirectories(dir.resolve("naive-jvm")))) {
                                NaiveFirstPassJvm.run(fresh, placed, dir.resolve("naive-jvm"), figures);
                            }
                        }
                    }
                    if (temporary) delete(dir);
                }
                results.add(new Report.Size(shape, where, figures));
            }
        } finally {
            if (temporary) delete(root);
        }
        new Report(results, runs).print(out);
        return 0;
    }

    /** The side-by-side scenario: per size, Windlass and then the peer's variants, each on a fresh control plane; then the table. */
    private int sideBySide() throws Exception {
        if (peer != null && !peer.equals("flux")) throw new CommandLine.ParameterException(new CommandLine(this), "no peer " + peer + "; flux");
        if (!List.of("one", "per-app", "both").contains(peerSources)) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--peer-sources takes one, per-app or both, not " + peerSources);
        }
        if (!Workload.FLUX_BENCHMARK.cli().equals(workload) && !"web-service".equals(workload)) {
            throw new CommandLine.ParameterException(new CommandLine(this), "the side-by-side scenario runs the flux-benchmark workload only");
        }
        List<String> flags = new ArrayList<>(WindlassProcess.DEFAULT_FLAGS);
        if (engineJvm != null && !engineJvm.isBlank()) flags.addAll(List.of(engineJvm.trim().split("\\s+")));
        List<Contender> engines = new ArrayList<>(List.of(new WindlassProcess(flags, interval)));
        if (peer != null) {
            Path built = FluxControllers.build(Path.of(System.getProperty("windlass.home", ".")));
            if (!peerSources.equals("per-app")) engines.add(new FluxControllers(built, false));
            if (!peerSources.equals("one")) engines.add(new FluxControllers(built, true));
        }
        boolean temporary = work == null;
        Path root = temporary ? Files.createTempDirectory("windlass-bench") : Files.createDirectories(work);
        List<SideBySide.Result> results = new ArrayList<>();
        try {
            for (int size : apps != null ? apps : List.of(100)) {
                FleetShape shape = new FleetShape(size, 1, 4, Workload.FLUX_BENCHMARK);
                for (Contender engine : engines) {
                    out.printf("%s: %s, on a fresh real control plane%n", engine.name(), shape);
                    results.add(new SideBySide(out, dev.windlass.policy.parse.Durations.parse(settle)).run(engine, shape, root.resolve(size + "-" + engine.name().replaceAll("[^A-Za-z]+", "-"))));
                }
            }
        } finally {
            if (temporary) delete(root);
        }
        out.println();
        if (!dev.windlass.policy.parse.Durations.parse(settle).isZero()) out.printf("CPU while idle: the minute after %s idle past the first sync.%n%n", settle);
        SideBySideTable.print(results, out);
        return 0;
    }

    /** The trust scenario: one shape, each run on fresh clusters and a fresh origin, its figures printed as every size's are. */
    private int trust(Workload shapeOf) throws Exception {
        if (shapeOf != Workload.WEB_SERVICE) throw new CommandLine.ParameterException(new CommandLine(this), "the trust scenario encrypts the web-service workload's Secrets");
        String missing = TrustCosts.unavailable(dev.windlass.render.RenderTools.fromEnvironment());
        if (missing != null) throw new CommandLine.ParameterException(new CommandLine(this), "the trust scenario cannot run: " + missing);
        int size = apps != null ? apps.get(0) : 100;
        int clusterCount = clusters != null ? clusters : 3;
        FleetShape shape = new FleetShape(size, clusterCount, objectsPerApp != null ? objectsPerApp : shapeOf.defaultObjects(), shapeOf);
        boolean temporary = work == null;
        Path root = temporary ? Files.createTempDirectory("windlass-bench") : Files.createDirectories(work);
        TrustCosts trust = new TrustCosts(shape, out);
        String where = "";
        try {
            for (int run = 1; run <= runs; run++) {
                out.printf("%s, trust scenario, run %d of %d%n", shape, run, runs);
                try (Clusters fleet = clusters(real, clusterCount, shape, Files.createDirectories(root.resolve("trust-run-" + run)))) {
                    where = fleet.describe();
                    trust.run(fleet, root.resolve("trust-run-" + run));
                }
            }
        } finally {
            if (temporary) delete(root);
        }
        new Report(List.of(new Report.Size(shape, where, trust.figures())), runs).print(out);
        return 0;
    }

    private Clusters clusters(boolean real, int count, FleetShape shape, Path dir) throws IOException {
        return real ? new RealClusters(count, shape.podsPerCluster(), dir) : new SandboxClusters(count, clusterHeap);
    }

    private static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) return;
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        }
    }
}
