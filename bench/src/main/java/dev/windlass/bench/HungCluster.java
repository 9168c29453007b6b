package dev.windlass.bench;

import static dev.windlass.bench.Figures.Unit.COUNT;

import dev.windlass.engine.reconcile.PassReport;
import dev.windlass.engine.reconcile.Reconciler;
import dev.windlass.git.Mirror;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The hung-cluster scenario: how long a change pushed to Git takes to reach the clusters that answer, with every
 * cluster answering and with the last cluster hung (it accepts connections and answers nothing, see
 * {@link Clusters#hang}). Each push edits one file of one app; the engine runs a pass at once, as a push webhook makes
 * it do, and more passes if the change has not reached every answering cluster yet. "Applied" is when the cluster
 * itself has the new object: the bench watches the edited object on each answering cluster and notes when each
 * copy arrives; push to applied is the last arrival. The hang begins right before a push, so the first push after it
 * is the pass that finds the cluster hung.
 *
 * <p>Two things besides the hang change push times during a run, and are kept from being taken for its effect: the
 * machine's other load, which drifts over minutes (odd runs measure without the hang first, even runs with it first,
 * and each run's own ratio is reported), and the engine's Git mirror compacting itself every 20 or so packs, which
 * holds one push for seconds (such pushes are reported on their own, in neither phase).
 */
final class HungCluster {
    static final String NONE_HUNG = "push to applied (answering clusters), none hung";
    static final String ONE_HUNG = "push to applied (answering clusters), 1 hung";
    static final String FIRST_AFTER_HANG = "  of which the first push after the hang began";
    static final String RATIO = "1 hung / none hung, each run's medians";
    static final String COMPACTING = "push to applied, held by a compaction of the engine's mirror";
    private static final String MAIN = "main";
    private static final long PUSH_DEADLINE_NANOS = 120_000_000_000L;

    private final FleetShape shape;
    private final SyntheticRepo repo;
    private final Origin origin;
    private final Reconciler reconciler;
    private final Mirror mirror;
    private final Clusters clusters;
    private final Figures figures;
    private final PrintStream log;
    private final int app;

    HungCluster(FleetShape shape, SyntheticRepo repo, Origin origin, Mirror mirror, Reconciler reconciler, Clusters clusters, Figures figures,
                PrintStream log) {
        if (shape.clusters() < 2) throw new IllegalArgumentException("the hung-cluster scenario needs at least 2 clusters");
        if (repo.editedKind().equals("ServiceAccount")) throw new IllegalArgumentException("the hung-cluster scenario needs at least 2 objects per app");
        this.shape = shape;
        this.repo = repo;
        this.origin = origin;
        this.reconciler = reconciler;
        this.mirror = mirror;
        this.clusters = clusters;
        this.figures = figures;
        this.log = log;
        this.app = shape.apps() / 2;
    }

    /** @param hungFirst measure with the hang first, then (once the thawed cluster caught up) without */
    void measure(int pushes, boolean hungFirst) throws IOException {
        List<String> names = clusters.names();
        String hung = names.get(names.size() - 1);
        List<String> answering = names.subList(0, names.size() - 1);
        int generation = 2000;
        List<Long> none = new ArrayList<>();
        List<Long> withHang = new ArrayList<>();
        try (Arrivals arrivals = new Arrivals(answering)) {
            if (!hungFirst) {
                for (int p = 0; p < pushes; p++) push(++generation, arrivals, NONE_HUNG, false).ifPresent(none::add);
            }
            log.printf("  hanging cluster %s%n", hung);
            clusters.hang(hung, true);
            try {
                for (int p = 0; p < pushes; p++) push(++generation, arrivals, ONE_HUNG, p == 0).ifPresent(withHang::add);
                var status = reconciler.state().clusters().get(hung);
                log.printf("  %s while hung: %s, %s%n", hung, status == null ? "-" : status.reachability(), status == null ? "" : status.message());
            } finally {
                clusters.hang(hung, false);
            }
            catchUp(hung, generation);
            if (hungFirst) {
                for (int p = 0; p < pushes; p++) push(++generation, arrivals, NONE_HUNG, false).ifPresent(none::add);
            }
        }
        if (!none.isEmpty() && !withHang.isEmpty()) figures.add(RATIO, Figures.Unit.RATIO, median(withHang) / median(none));
    }

    /** Once it answers again, it catches up: its probe (every few seconds) closes its breaker, then a pass writes. */
    private void catchUp(String hung, int generation) throws IOException {
        long t0 = System.nanoTime();
        int passes = 0;
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(clusters.config(hung)).build()) {
            while (!String.valueOf(generation).equals(generation(client)) && System.nanoTime() - t0 < PUSH_DEADLINE_NANOS) {
                BenchRun.sleep(1000);
                reconciler.reconcile();
                passes++;
            }
            if (String.valueOf(generation).equals(generation(client))) {
                figures.addNanos("hung cluster thawed: until it has the last push", System.nanoTime() - t0);
                figures.add("  passes", COUNT, passes);
            } else {
                log.printf("  %s did not get the last push within %d s of answering again%n", hung, PUSH_DEADLINE_NANOS / 1_000_000_000L);
            }
        }
    }

    private static double median(List<Long> values) {
        List<Long> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2.0;
    }

    /**
     * One push: commit, then passes until every answering cluster has it; the figure is the last arrival. Returns it,
     * or nothing when the push did not arrive everywhere or was held by a compaction of the mirror.
     */
    private Optional<Long> push(int generation, Arrivals arrivals, String figure, boolean firstAfterHang) throws IOException {
        origin.commit(MAIN, null, Map.of(repo.editedPath(app), repo.edited(app, generation)), "Push " + generation);
        int compactions = mirror.storage().compactions();
        long t0 = System.nanoTime();
        int passes = 0;
        long slowest = 0;
        String wanted = String.valueOf(generation);
        while (!arrivals.allHave(wanted) && System.nanoTime() - t0 < PUSH_DEADLINE_NANOS) {
            long p0 = System.nanoTime();
            PassReport r = reconciler.reconcile();
            slowest = Math.max(slowest, System.nanoTime() - p0);
            passes++;
            // The watch event may come a moment after the pass that wrote it returned.
            if (!arrivals.allHave(wanted)) arrivals.await(wanted, 2_000);
            if (!arrivals.allHave(wanted)) explain(generation, r);
        }
        Long last = arrivals.last(wanted);
        if (last == null) {
            log.printf("  push %d did not reach every answering cluster within %d s%n", generation, PUSH_DEADLINE_NANOS / 1_000_000_000L);
            return Optional.empty();
        }
        long applied = last - t0;
        if (mirror.storage().compactions() > compactions) {
            log.printf("  push %d: applied on %d clusters after %.0f ms, held by a compaction of the mirror%n", generation, arrivals.clusters(),
                    applied / 1e6);
            figures.addNanos(COMPACTING, applied);
            BenchRun.sleep(1000);
            return Optional.empty();
        }
        figures.addNanos(figure, applied);
        if (firstAfterHang) figures.addNanos(FIRST_AFTER_HANG, applied);
        figures.add("  passes until applied", COUNT, passes);
        figures.addNanos("  slowest pass", slowest);
        log.printf("  push %d: applied on %d clusters after %.0f ms, %d pass(es)%n", generation, arrivals.clusters(), applied / 1e6, passes);
        BenchRun.sleep(1000); // as between two pushes: the engine idle, the clusters' controllers go on
        return Optional.of(applied);
    }

    /** Why a pass left an answering cluster without the change: failed writes, or clusters it did not wait for. */
    private void explain(int generation, PassReport pass) throws IOException {
        pass.applied().results().stream().filter(x -> !x.succeeded()).limit(2)
                .forEach(x -> log.printf("  push %d: %s on %s: %s%n", generation, x.action().describe(), x.action().cluster(), x.message()));
        reconciler.state().clusters().values().stream().filter(c -> c.reachability() != dev.windlass.policy.state.Reachability.Reachable).limit(3)
                .forEach(c -> log.printf("  push %d: cluster %s %s: %s%n", generation, c.name(), c.reachability(), c.message()));
    }

    private String generation(KubernetesClient client) {
        GenericKubernetesResource live = client.genericKubernetesResources("v1", repo.editedKind()).inNamespace(SyntheticRepo.app(app))
                .withName(repo.editedName(app)).get();
        return live == null ? null : repo.generationOf(live);
    }

    /** Watches of the edited object on the answering clusters: when each generation first arrived on each. */
    private final class Arrivals implements AutoCloseable {
        private final List<KubernetesClient> clients = new ArrayList<>();
        private final List<Watch> watches = new ArrayList<>();
        private final Map<String, Map<String, Long>> seen = new ConcurrentHashMap<>();
        private final int count;

        Arrivals(List<String> names) {
            this.count = names.size();
            for (String name : names) {
                KubernetesClient client = new KubernetesClientBuilder().withConfig(clusters.config(name)).build();
                clients.add(client);
                Map<String, Long> byGeneration = seen.computeIfAbsent(name, n -> new ConcurrentHashMap<>());
                watches.add(client.genericKubernetesResources("v1", repo.editedKind()).inNamespace(SyntheticRepo.app(app))
                        .withName(repo.editedName(app)).watch(new Watcher<>() {
                            @Override public void eventReceived(Action action, GenericKubernetesResource resource) {
                                long now = System.nanoTime();
                                String g = repo.generationOf(resource);
                                if (g != null) {
                                    byGeneration.putIfAbsent(g, now);
                                    synchronized (Arrivals.this) {
                                        Arrivals.this.notifyAll();
                                    }
                                }
                            }

                            @Override public void onClose(WatcherException cause) {
                                log.printf("  watch of %s closed: %s%n", name, cause);
                            }
                        }));
            }
        }

        int clusters() { return count; }

        boolean allHave(String generation) { return seen.values().stream().allMatch(m -> m.containsKey(generation)); }

        synchronized void await(String generation, long millis) {
            long until = System.currentTimeMillis() + millis;
            while (!allHave(generation) && System.currentTimeMillis() < until) {
                try {
                    wait(Math.max(1, until - System.currentTimeMillis()));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }

        /** When the last answering cluster got it; null while one has not. */
        Long last(String generation) {
            if (!allHave(generation)) return null;
            return seen.values().stream().mapToLong(m -> m.get(generation)).max().orElseThrow();
        }

        @Override public void close() {
            watches.forEach(Watch::close);
            clients.forEach(KubernetesClient::close);
        }
    }
}
