package dev.windlass.applier;

import dev.windlass.applier.cluster.ClusterClients;
import dev.windlass.applier.observe.Observer;
import dev.windlass.applier.write.ActionWrite;
import dev.windlass.policy.observe.ClusterObservation;
import dev.windlass.policy.observe.DesiredObjects;
import dev.windlass.policy.observe.KindRef;
import dev.windlass.policy.observe.ObservedState;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Stage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.function.Predicate;

/**
 * The applier's facade: observes clusters and executes stages, clusters in parallel, each within its own
 * deadline. Owns the {@link ClusterClients} it is given and closes them with itself.
 */
public final class Applier implements AutoCloseable {

    private final ClusterClients clients;
    private final ApplierSettings settings;
    private final Observer observer;
    private final ActionWrite writes = new ActionWrite();
    private final DeadlinePool pool;

    public Applier(ClusterClients clients) { this(clients, ApplierSettings.DEFAULT); }

    public Applier(ClusterClients clients, ApplierSettings settings) {
        this.clients = clients;
        this.settings = settings;
        this.observer = new Observer(clients);
        this.pool = new DeadlinePool(settings.maxParallelClusters());
    }

    public ClusterClients clients() { return clients; }

    /** Observes every cluster named; one that fails or runs out of time is reported unreachable, never thrown. */
    public ObservedState observe(Map<String, Set<KindRef>> kindsByCluster) {
        return observe(kindsByCluster, Map.of());
    }

    /** With, per cluster, the kinds remediation policies watch there (all objects of them, not only Windlass's). */
    public ObservedState observe(Map<String, Set<KindRef>> kindsByCluster, Map<String, Set<KindRef>> targetsByCluster) {
        return observe(kindsByCluster, targetsByCluster, DesiredObjects.NONE);
    }

    /**
     * With what Git wants of each object, so that an object Windlass's own comparison finds different is confirmed by
     * the API server before it counts as drift (clusters with server-side apply only).
     */
    public ObservedState observe(Map<String, Set<KindRef>> kindsByCluster, Map<String, Set<KindRef>> targetsByCluster,
                                 DesiredObjects desired) {
        Duration deadline = settings.observeDeadline();
        Map<String, CompletableFuture<ClusterObservation>> running = new LinkedHashMap<>();
        kindsByCluster.forEach((cluster, kinds) -> running.put(cluster, pool.submit(
                        () -> observer.observe(cluster, kinds, targetsByCluster.getOrDefault(cluster, Set.of()), desired), deadline,
                        () -> ClusterObservation.unreachable(cluster, "timed out after " + seconds(deadline)))
                .exceptionally(e -> ClusterObservation.unreachable(cluster, "observation failed: " + e))));
        Map<String, ClusterObservation> observed = new LinkedHashMap<>();
        running.forEach((cluster, future) -> observed.put(cluster, future.join()));
        return new ObservedState(observed);
    }

    /** Dry runs sent to ask {@code cluster}'s API server about drift so far (see {@link #observe(Map, Map, DesiredObjects)}). */
    public long driftDryRuns(String cluster) { return observer.driftDryRuns(cluster); }

    /** Executes every action of {@code stage}; results in the stage's action order. */
    public List<ActionResult> execute(Stage stage) { return execute(stage, cluster -> true); }

    /**
     * Executes the actions of {@code stage} on {@code onlyClusters} (a stage gated per cluster runs where its
     * gate holds); results, in the stage's action order, only for the actions executed.
     */
    public List<ActionResult> execute(Stage stage, Set<String> onlyClusters) {
        return execute(stage, onlyClusters::contains);
    }

    /**
     * Asks the API servers of {@code onlyClusters} what the stage's actions there would do, changing nothing
     * ({@code dryRun=All}): per action Created, Configured, Unchanged or Deleted, or Failed with the server's own
     * validation message. Clusters without server-side apply answer Skipped ({@value ClusterDryRun#NOT_SUPPORTED}).
     * Results in the stage's action order, only for those clusters.
     */
    public List<ActionResult> dryRun(Stage stage, Set<String> onlyClusters) {
        return perCluster(stage, onlyClusters::contains, "dry run",
                (cluster, actions) -> new ClusterDryRun(cluster, actions, writes));
    }

    private List<ActionResult> execute(Stage stage, Predicate<String> included) {
        return perCluster(stage, included, "it may or may not have been applied",
                (cluster, actions) -> new ClusterRun(cluster, actions, writes));
    }

    /** Runs each cluster's share in parallel under its own deadline; results in the stage's action order. */
    private List<ActionResult> perCluster(Stage stage, Predicate<String> included, String inFlight,
                                          BiFunction<String, List<Action>, ClusterWork> work) {
        Map<String, List<Action>> byCluster = new LinkedHashMap<>();
        for (Action action : stage.actions()) {
            if (included.test(action.cluster())) {
                byCluster.computeIfAbsent(action.cluster(), c -> new ArrayList<>()).add(action);
            }
        }
        Map<String, CompletableFuture<List<ActionResult>>> running = new LinkedHashMap<>();
        byCluster.forEach((cluster, actions) -> {
            ClusterWork run = work.apply(cluster, actions);
            Duration deadline = settings.executeDeadline(actions.size());
            running.put(cluster, pool.submit(() -> run.run(clients.connection(cluster)), deadline,
                            () -> run.endWith("timed out after " + seconds(deadline) + "; " + inFlight,
                                    "skipped: cluster " + cluster + " timed out", true))
                    .exceptionally(e -> run.endWith("failed unexpectedly: " + e, "skipped after an unexpected failure", false)));
        });
        Map<String, Iterator<ActionResult>> results = new LinkedHashMap<>();
        running.forEach((cluster, future) -> results.put(cluster, future.join().iterator()));
        List<ActionResult> ordered = new ArrayList<>();
        for (Action action : stage.actions()) {
            Iterator<ActionResult> of = results.get(action.cluster());
            if (of != null) ordered.add(of.next());
        }
        return ordered;
    }

    /** Stops the pool and closes every cluster client. */
    @Override public void close() {
        pool.close();
        clients.close();
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
    }
}
