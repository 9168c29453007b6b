package dev.windlass.applier;

import dev.windlass.applier.inventory.InventoryBodies;
import dev.windlass.applier.cluster.ClientSettings;
import dev.windlass.applier.cluster.ClusterClients;
import dev.windlass.applier.cluster.ClusterConnection;
import dev.windlass.applier.observe.FleetStamp;
import dev.windlass.applier.observe.Observer;
import dev.windlass.applier.reads.ReadsStamp;
import dev.windlass.applier.write.ActionWrite;
import dev.windlass.policy.observe.ClusterObservation;
import dev.windlass.policy.observe.DesiredObjects;
import dev.windlass.policy.observe.KindRef;
import dev.windlass.policy.observe.ObservedState;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.fence.WriteFence;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Stage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
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
    private final LaneThreads laneThreads = new LaneThreads();
    private final InventoryBodies inventoryBodies = new InventoryBodies();
    private final Map<String, ClusterLane> lanes = new java.util.concurrent.ConcurrentHashMap<>();

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
     *
     * <p>One cluster's trouble stays its own: each cluster is observed on its own thread, and the pass waits for it at
     * most its allowance ({@link ClusterLane}), or less once most of the others have answered ({@link ObservationWait});
     * one that has not answered by then is reported unreachable, its
     * observation goes on in the background, and later passes do not wait for it while a background probe finds it
     * not answering.
     */
    public ObservedState observe(Map<String, Set<KindRef>> kindsByCluster, Map<String, Set<KindRef>> targetsByCluster,
                                 DesiredObjects desired) {
        Duration deadline = settings.observeDeadline();
        Map<String, ClusterObservation> observed = new LinkedHashMap<>();
        Map<String, CompletableFuture<ClusterObservation>> running = new LinkedHashMap<>();
        long started = System.nanoTime();
        // When each observation got a thread: with more clusters than threads, some wait in the queue first.
        Map<String, Long> begun = new java.util.concurrent.ConcurrentHashMap<>();
        for (var e : kindsByCluster.entrySet()) {
            String cluster = e.getKey();
            ClusterLane lane = lane(cluster);
            String silent = lane.notAnswering();
            if (silent != null || lane.busy()) {
                lane.probeIfDue(settings.probeEvery(), () -> probe(cluster));
                observed.put(cluster, ClusterObservation.unreachable(cluster, silent != null ? silent
                        : "still busy with the last observation, which did not finish in time"));
                continue;
            }
            running.put(cluster, pool.submit(
                            () -> {
                                begun.put(cluster, System.nanoTime());
                                return timed(lane, () -> observer.observe(cluster, e.getValue(), targetsByCluster.getOrDefault(cluster, Set.of()), desired));
                            },
                            deadline, () -> ClusterObservation.unreachable(cluster, "timed out after " + seconds(deadline)))
                    .exceptionally(x -> ClusterObservation.unreachable(cluster, "observation failed: " + x)));
        }
        Duration othersTypical = typicalOf(running.keySet());
        Map<String, Duration> allowances = new LinkedHashMap<>();
        for (String cluster : running.keySet()) allowances.put(cluster, lane(cluster).allowance(settings, othersTypical));
        try {
            ObservationWait.Outcome waited = new ObservationWait(settings, started, begun, running, lanes).await(allowances);
            observed.putAll(waited.answered());
            waited.givenUp().forEach((cluster, why) -> {
                ClusterLane lane = lane(cluster);
                CompletableFuture<ClusterObservation> late = running.get(cluster);
                lane.gaveUpWaiting(late, why);
                late.whenComplete((r, x) -> lane.finishedLate(late));
                observed.put(cluster, ClusterObservation.unreachable(cluster, why));
            });
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
            for (String cluster : running.keySet()) {
                observed.putIfAbsent(cluster, ClusterObservation.unreachable(cluster, "observation interrupted"));
            }
        }
        Map<String, ClusterObservation> ordered = new LinkedHashMap<>();
        kindsByCluster.keySet().forEach(c -> ordered.put(c, observed.get(c)));
        return new ObservedState(ordered);
    }

    /** Runs an observation and, when it reached the cluster, notes how long it took. */
    private static ClusterObservation timed(ClusterLane lane, java.util.function.Supplier<ClusterObservation> observation) {
        long start = System.nanoTime();
        ClusterObservation result = observation.get();
        if (result.reachable()) lane.answered(Duration.ofNanos(System.nanoTime() - start));
        return result;
    }

    /** Whether a cluster answers at all: one {@code GET /readyz}, with the client's own request timeout. */
    private CompletableFuture<Boolean> probe(String cluster) {
        return pool.submit(() -> observer.answers(cluster), settings.observeDeadline(), () -> false).exceptionally(x -> false);
    }

    /**
     * What every watch of these clusters holds now, made locally: nothing is asked of any cluster. Empty when some
     * read of theirs would ask its cluster (see {@link dev.windlass.applier.reads.ClusterReads#stamp}), or one of them
     * is not connected, is taken to be not answering, or is still busy with an earlier observation.
     */
    public Optional<FleetStamp> stamp(Set<String> clusters) {
        Map<String, ReadsStamp> stamps = new TreeMap<>();
        for (String cluster : clusters) {
            ClusterLane lane = lanes.get(cluster);
            if (lane == null || lane.notAnswering() != null || lane.busy()) return Optional.empty();
            if (!(clients.connection(cluster) instanceof ClusterConnection.Connected c)) return Optional.empty();
            ReadsStamp stamp = c.reads().stamp();
            if (stamp == null) return Optional.empty();
            stamps.put(cluster, stamp);
        }
        return Optional.of(new FleetStamp(stamps));
    }

    /**
     * Proves again, for each of these clusters that is connected and answering, the watches whose proof ran out while
     * nothing of their kind was written (see {@link dev.windlass.applier.reads.ClusterReads#renewProofs}): one LIST of
     * metadata per such watch, side by side, each within the observation deadline. A quiet fleet's {@link #stamp} then
     * stays what it was. A cluster that does not answer in time keeps its proofs as they were.
     */
    public void renewProofs(Set<String> clusters) {
        List<CompletableFuture<Boolean>> asked = new ArrayList<>();
        for (String cluster : clusters) {
            ClusterLane lane = lanes.get(cluster);
            if (lane == null || lane.notAnswering() != null || lane.busy()) continue;
            if (!(clients.connection(cluster) instanceof ClusterConnection.Connected c)) continue;
            asked.add(pool.submit(() -> {
                c.reads().renewProofs();
                return true;
            }, settings.observeDeadline(), () -> false).exceptionally(x -> false));
        }
        asked.forEach(CompletableFuture::join);
    }

    /**
     * Whether every one of these clusters says it is ready: one {@code GET /readyz} each, side by side, each within the
     * observation deadline (no answer in time is "no").
     */
    public boolean ready(Set<String> clusters) {
        List<CompletableFuture<Boolean>> asked = new ArrayList<>();
        for (String cluster : clusters) {
            asked.add(pool.submit(() -> observer.ready(cluster), settings.observeDeadline(), () -> false).exceptionally(x -> false));
        }
        boolean all = true;
        for (CompletableFuture<Boolean> a : asked) all &= a.join();
        return all;
    }

    /** The median usual observation time of these clusters, for one that has none yet; null when none has one. */
    private Duration typicalOf(Set<String> clusters) {
        List<Duration> known = new ArrayList<>();
        for (String c : clusters) {
            Duration t = lane(c).typical();
            if (t != null) known.add(t);
        }
        if (known.isEmpty()) return null;
        known.sort(null);
        return known.get(known.size() / 2);
    }

    private ClusterLane lane(String cluster) { return lanes.computeIfAbsent(cluster, c -> new ClusterLane()); }

    /** Dry runs sent to ask {@code cluster}'s API server about drift so far (see {@link #observe(Map, Map, DesiredObjects)}). */
    public long driftDryRuns(String cluster) { return observer.driftDryRuns(cluster); }

    /**
     * Executes a plan's stages, every cluster on its own ({@link ClusterPipeline}): each runs its part of each stage in
     * turn, under its own deadline for all of them, and moves on without waiting for other clusters. Within a cluster's
     * part of a stage, applications are applied side by side, {@link ClientSettings#inFlight} at once, in the plan's
     * order of phases and waves ({@link ApplySteps}). Clusters taken to be not answering are not written to. Results in
     * the plan's order, only for the actions executed.
     */
    public List<ActionResult> executeStages(List<Stage> stages) {
        return executeStages(stages, WriteFence.OPEN);
    }

    /**
     * {@link #executeStages(List)}, asking {@code fence} before every write: once it refuses, no cluster is written to
     * any more and the actions left fail with its reason.
     */
    public List<ActionResult> executeStages(List<Stage> stages, WriteFence fence) {
        Map<String, List<List<Action>>> byCluster = new LinkedHashMap<>();
        for (int i = 0; i < stages.size(); i++) {
            for (Action action : stages.get(i).actions()) {
                List<List<Action>> perStage = byCluster.computeIfAbsent(action.cluster(), c -> new ArrayList<>());
                while (perStage.size() <= i) perStage.add(new ArrayList<>());
                perStage.get(i).add(action);
            }
        }
        Map<String, CompletableFuture<List<ActionResult>>> running = new LinkedHashMap<>();
        byCluster.forEach((cluster, perStage) -> {
            perStage.removeIf(List::isEmpty);
            ClusterPipeline pipeline = new ClusterPipeline(cluster, perStage, writes, fence, laneThreads, clients.settings().inFlight(),
                    inventoryBodies);
            int actions = perStage.stream().mapToInt(List::size).sum();
            Duration deadline = settings.executeDeadline(actions);
            String silent = lane(cluster).notAnswering();
            if (silent != null) {
                running.put(cluster, CompletableFuture.completedFuture(pipeline.endWith("skipped: cluster " + cluster + " " + silent,
                        "skipped: cluster " + cluster + " is not answering", true)));
                return;
            }
            running.put(cluster, pool.submit(() -> pipeline.run(clients.connection(cluster)), deadline,
                            () -> pipeline.endWith("timed out after " + seconds(deadline) + "; it may or may not have been applied",
                                    "skipped: cluster " + cluster + " timed out", true))
                    .exceptionally(e -> pipeline.endWith("failed unexpectedly: " + e, "skipped after an unexpected failure", false)));
        });
        Map<Action, ActionResult> byAction = new java.util.IdentityHashMap<>();
        running.values().forEach(f -> f.join().forEach(r -> byAction.put(r.action(), r)));
        List<ActionResult> ordered = new ArrayList<>();
        for (Stage stage : stages) {
            for (Action action : stage.actions()) {
                ActionResult r = byAction.get(action);
                if (r != null) ordered.add(r);
            }
        }
        return ordered;
    }

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
                (cluster, actions) -> new ClusterRun(cluster, actions, writes, WriteFence.OPEN, laneThreads, clients.settings().inFlight(),
                        inventoryBodies));
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
        laneThreads.close();
        clients.close();
    }

    static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
    }
}
