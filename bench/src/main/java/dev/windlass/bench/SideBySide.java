package dev.windlass.bench;

import dev.windlass.kubetest.AuditedWrite;
import dev.windlass.kubetest.KubeCluster;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * {@code windlass bench --peer flux} (and {@code --scenario side-by-side} for Windlass alone): each engine in turn, in
 * processes of its own, against a fresh real control plane (etcd, kube-apiserver, kube-controller-manager,
 * kube-scheduler, one kwok node) and a repo of the published benchmark's shape served over smart HTTP. Each acts as its
 * own API users, so the server's audit log counts its writes and only its writes. Per engine and size it measures:
 * start to the first object and to every object applied, then to every Deployment Available; the writes of the first
 * sync, of a minute with nothing to do and of a one-file change; the time from a push (told as a webhook tells it) to
 * the changed object written; CPU (from {@code /proc}) for the first sync, the change, and per idle minute; Git requests
 * per idle minute; and the peak resident memory of its processes (the kernel's {@code VmHWM}, summed).
 */
final class SideBySide {
    /** The kinds of the published shape's objects, as the audit log names them. */
    static final Set<String> KINDS = Set.of("deployments", "serviceaccounts", "services", "ingresses");
    static final Duration QUIET = Duration.ofSeconds(10);
    static final Duration IDLE = Duration.ofSeconds(60);
    static final Duration SYNC_DEADLINE = Duration.ofMinutes(60);

    /** One engine's figures at one size; a {@code null} duration was not reached before its deadline. */
    record Result(String engine, int apps, Duration firstObject, Duration allApplied, Duration allReady, long syncWrites, double syncCpuSeconds,
                  long idleWrites, double idleCpuSecondsPerMinute, double idleGitRefsPerMinute, double idleGitFetchesPerMinute, double idleGitPushesPerMinute,
                  Duration pushToApplied, long changeWrites, double changeCpuSeconds, long peakRssKib) {}

    private final PrintStream out;
    private final Duration settle;

    /** @param settle how long the engine stays idle after its first sync before its idle minute is measured */
    SideBySide(PrintStream out, Duration settle) {
        this.out = out;
        this.settle = settle;
    }

    Result run(Contender engine, FleetShape shape, Path dir) throws Exception {
        Files.createDirectories(dir);
        SyntheticRepo repo = new SyntheticRepo(shape, name -> "{kubeconfig: {path: lab.kubeconfig}}");
        Path repositories = Files.createDirectories(dir.resolve("git"));
        try (KubeCluster cluster = KubeCluster.start(1);
             KubernetesClient admin = cluster.newClient();
             Origin origin = Origin.create(repositories.resolve("origin.git"));
             GitHttp git = GitHttp.serve(repositories)) {
            origin.commit("main", null, engine.files(repo), "A fleet of the published benchmark's shape");
            String url = git.url("origin.git");
            engine.install(admin, repo, url);
            List<Process> processes = new java.util.concurrent.CopyOnWriteArrayList<>();
            // A bench stopped with a signal runs no finally block: its control plane goes with its own hooks, the engine's
            // processes with this one, so that none is left running on the machine.
            Thread stopped = new Thread(() -> processes.forEach(Process::destroyForcibly), "side-by-side-stopped");
            Runtime.getRuntime().addShutdownHook(stopped);
            try {
                Instant started = Instant.now();
                processes.addAll(engine.start(dir, cluster, url));
                long cpu0 = cpu(processes);
                Applied applied = awaitApplied(cluster, engine, shape, started, processes);
                Duration ready = applied.all == null ? null : awaitReady(admin, shape, started);
                Instant settled = awaitQuiet(cluster, engine, git);
                long syncWrites = writes(cluster, engine, Instant.MIN, settled);
                double syncCpu = seconds(cpu(processes) - cpu0);
                out.printf("  %s, %d apps: first object %s, all applied %s, all ready %s; %d writes, %.1f s CPU%n", engine.name(), shape.apps(),
                        fmt(applied.first), fmt(applied.all), fmt(ready), syncWrites, syncCpu);

                // A minute with nothing new, after the settling time asked for.
                if (!settle.isZero()) {
                    out.printf("  settling: %s idle before the idle minute%n", fmt(settle));
                    Thread.sleep(settle.toMillis());
                }
                long idleCpu0 = cpu(processes);
                GitHttp.Requests idleGit0 = git.requests();
                Instant idleFrom = Instant.now();
                Thread.sleep(IDLE.toMillis());
                Instant idleTo = Instant.now();
                double perMinute = 60.0 / Duration.between(idleFrom, idleTo).toMillis() * 1000;
                GitHttp.Requests idleGit = git.requests().minus(idleGit0);
                double idleCpu = seconds(cpu(processes) - idleCpu0) * perMinute;
                long idleWrites = writes(cluster, engine, idleFrom, idleTo);
                out.printf("  idle minute: %.2f s CPU, %d writes; Git: %d ref advertisements, %d upload-pack requests, %d push requests%n", idleCpu,
                        idleWrites, idleGit.refs(), idleGit.fetches(), idleGit.pushes());

                // One file changes: one app's Service.
                int app = shape.apps() / 2;
                long changeCpu0 = cpu(processes);
                origin.commit("main", null, Map.of(repo.editedPath(app), repo.edited(app, 1)), "Change one file");
                Instant pushed = Instant.now();
                engine.pushed(admin, repo);
                Instant written = awaitWrite(cluster, engine, "services", SyntheticRepo.app(app), repo.editedName(app), pushed, processes);
                Instant changeSettled = awaitQuiet(cluster, engine, git);
                long changeWrites = writes(cluster, engine, pushed, changeSettled);
                double changeCpu = seconds(cpu(processes) - changeCpu0);
                Duration pushToApplied = written == null ? null : Duration.between(pushed, written);
                long rss = processes.stream().mapToLong(p -> LargeRenders.kib(p.pid(), "VmHWM")).sum();
                out.printf("  push to applied %s, %d writes, %.1f s CPU; peak RSS %d MiB%n", fmt(pushToApplied), changeWrites, changeCpu, rss / 1024);
                return new Result(engine.name(), shape.apps(), applied.first, applied.all, ready, syncWrites, syncCpu, idleWrites, idleCpu,
                        idleGit.refs() * perMinute, idleGit.fetches() * perMinute, idleGit.pushes() * perMinute, pushToApplied, changeWrites, changeCpu, rss);
            } finally {
                try {
                    Runtime.getRuntime().removeShutdownHook(stopped);
                } catch (IllegalStateException shuttingDown) {
                    // the hook is running or about to
                }
                for (Process p : processes) p.destroy();
                for (Process p : processes) {
                    if (!p.waitFor(30, TimeUnit.SECONDS)) p.destroyForcibly();
                }
            }
        }
    }

    private record Applied(Duration first, Duration all) {}

    /**
     * Waits until every object of every app was written by the engine; the times are the server's, from its audit log,
     * so reading the log once a second loses no precision (and takes less CPU from the engine measured).
     */
    private Applied awaitApplied(KubeCluster cluster, Contender engine, FleetShape shape, Instant started, List<Process> processes) throws Exception {
        int wanted = shape.apps() * shape.objectsPerApp();
        Duration[] first = {null};
        Applied applied = poll(SYNC_DEADLINE, Duration.ofSeconds(1), () -> {
            alive(engine, processes);
            Map<String, Instant> firstWrite = new HashMap<>();
            for (AuditedWrite w : cluster.api().auditedWrites()) {
                if (!w.succeeded() || !engine.users().contains(w.user()) || !KINDS.contains(w.resource()) || w.namespace() == null
                        || !w.namespace().startsWith("app-")) continue;
                firstWrite.putIfAbsent(w.resource() + "/" + w.namespace() + "/" + w.name(), w.at());
            }
            if (first[0] == null && !firstWrite.isEmpty()) {
                first[0] = Duration.between(started, firstWrite.values().stream().min(Instant::compareTo).orElseThrow());
            }
            return firstWrite.size() < wanted ? null
                    : new Applied(first[0], Duration.between(started, firstWrite.values().stream().max(Instant::compareTo).orElseThrow()));
        });
        return applied != null ? applied : new Applied(first[0], null);
    }

    /** Waits until every app's Deployment is Available, as the cluster's own controller says; asked every half second. */
    private static Duration awaitReady(KubernetesClient admin, FleetShape shape, Instant started) throws Exception {
        return poll(SYNC_DEADLINE, Duration.ofMillis(500), () -> admin.apps().deployments().inAnyNamespace().list().getItems().stream()
                .filter(d -> d.getMetadata().getNamespace().startsWith("app-")).filter(SideBySide::available).count() >= shape.apps()
                ? Duration.between(started, Instant.now()) : null);
    }

    private static boolean available(Deployment d) {
        return d.getStatus() != null && d.getStatus().getConditions() != null
                && d.getStatus().getConditions().stream().anyMatch(c -> c.getType().equals("Available") && c.getStatus().equals("True"));
    }

    /**
     * Waits until the engine has written nothing for {@link #QUIET} (at most five minutes), neither to the cluster nor
     * to Git (where Windlass records status, as the peer does in its objects' status); returns when it began.
     */
    private static Instant awaitQuiet(KubeCluster cluster, Contender engine, GitHttp git) throws Exception {
        Instant quiet = poll(Duration.ofMinutes(5), Duration.ofSeconds(1), () -> {
            Instant last = git.lastPush();
            for (AuditedWrite w : cluster.api().auditedWrites()) {
                if (engine.users().contains(w.user()) && w.at().isAfter(last)) last = w.at();
            }
            Instant now = Instant.now();
            return Duration.between(last, now).compareTo(QUIET) < 0 ? null : last.equals(Instant.EPOCH) ? now : last.plusMillis(1);
        });
        return quiet != null ? quiet : Instant.now();
    }

    /** The first successful write of one object by the engine after {@code after} (the server's time), or null within the deadline. */
    private static Instant awaitWrite(KubeCluster cluster, Contender engine, String resource, String namespace, String name, Instant after,
                                      List<Process> processes) throws Exception {
        return poll(SYNC_DEADLINE, Duration.ofMillis(500), () -> {
            alive(engine, processes);
            return cluster.api().auditedWrites().stream().filter(w -> w.succeeded() && engine.users().contains(w.user()) && w.at().isAfter(after)
                    && resource.equals(w.resource()) && namespace.equals(w.namespace()) && name.equals(w.name())).map(AuditedWrite::at).findFirst()
                    .orElse(null);
        });
    }

    /** Asks {@code probe} every {@code every} until it gives a value, or null once {@code limit} has passed. */
    private static <T> T poll(Duration limit, Duration every, java.util.concurrent.Callable<T> probe) throws Exception {
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            T value = probe.call();
            if (value != null) return value;
            Thread.sleep(every.toMillis());
        }
        return null;
    }

    /** Every write request of the engine's users the server audited in [from, to), answered or refused. */
    private static long writes(KubeCluster cluster, Contender engine, Instant from, Instant to) {
        return cluster.api().auditedWrites().stream()
                .filter(w -> engine.users().contains(w.user()) && !w.at().isBefore(from) && w.at().isBefore(to)).count();
    }

    private static void alive(Contender engine, List<Process> processes) {
        for (Process p : processes) {
            if (!p.isAlive()) throw new IllegalStateException(engine.name() + ": a process exited with " + p.exitValue() + "; its log is in the run's folder");
        }
    }

    private static long cpu(List<Process> processes) {
        return processes.stream().mapToLong(p -> CpuTime.processNanos(p.pid())).sum();
    }

    private static double seconds(long nanos) { return nanos / 1e9; }

    static String fmt(Duration d) { return d == null ? "not reached" : String.format("%.1f s", d.toMillis() / 1000.0); }
}
