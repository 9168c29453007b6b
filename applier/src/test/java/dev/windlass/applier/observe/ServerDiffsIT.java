package dev.windlass.applier.observe;

import static dev.windlass.applier.support.Fixtures.create;
import static dev.windlass.applier.support.Fixtures.manifest;
import static dev.windlass.applier.support.Fixtures.serverSide;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.windlass.applier.Applier;
import dev.windlass.applier.support.Fixtures;
import dev.windlass.applier.support.RealCluster;
import dev.windlass.kubetest.RequestCounts;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.observe.DesiredObjects;
import dev.windlass.policy.observe.KindRef;
import dev.windlass.policy.observe.LiveObject;
import dev.windlass.policy.observe.ObservedState;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Outcome;
import dev.windlass.policy.plan.Stage;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Drift confirmed by the API server itself: an object Windlass's own comparison finds different is asked of the server
 * with a server-side apply dry run, once per resource version, and what the server stores differently is no drift.
 */
class ServerDiffsIT {

    private static RealCluster cluster;
    private static Applier applier;

    @BeforeAll static void start() {
        cluster = RealCluster.start();
        applier = cluster.newApplier();
    }

    @AfterAll static void stop() {
        applier.close();
        cluster.close();
    }

    /** An autoscaler's metric target in milli-units: the API server stores {@code 1000m} as {@code "1"}. */
    static Manifest autoscaler(String ns, int minReplicas) {
        return manifest("""
                apiVersion: autoscaling/v2
                kind: HorizontalPodAutoscaler
                metadata: {name: web, namespace: %s}
                spec:
                  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
                  minReplicas: %d
                  maxReplicas: 4
                  metrics:
                  - type: Pods
                    pods:
                      metric: {name: requests_per_second}
                      target: {type: AverageValue, averageValue: 1000m}
                """.formatted(ns, minReplicas));
    }

    private LiveObject observed(Manifest m) {
        ObservedState state = applier.observe(Map.of(RealCluster.NAME, Set.of(new KindRef("autoscaling/v2", "HorizontalPodAutoscaler"))), Map.of(),
                DesiredObjects.of(List.of(new DesiredObjects.Wanted(Fixtures.APP, m, List.of()))));
        return state.clusters().get(RealCluster.NAME).objects().get(m.ref());
    }

    @Test void whatTheServerStoresDifferentlyIsNoDriftAndIsAskedOncePerVersion() {
        String ns = cluster.newNamespace("hpa");
        Manifest hpa = autoscaler(ns, 2);
        ActionResult created = applier.execute(new Stage("apply", "", List.of(serverSide(create(RealCluster.NAME, hpa))))).get(0);
        assertEquals(Outcome.Created, created.outcome(), created.message());

        RequestCounts before = cluster.counts();
        LiveObject first = observed(hpa);
        LiveObject second = observed(hpa);
        RequestCounts between = cluster.countsSince(before);

        assertEquals(List.of("spec.metrics[0].pods.target.averageValue"),
                dev.windlass.policy.diff.FieldDiff.differences(hpa.body(), first.body()), "Windlass's own comparison sees 1000m and 1");
        assertEquals(List.of(), first.serverDiff().fields(), "the server says applying Git changes nothing");
        assertEquals(hpa.hash(), first.serverDiff().desiredHash());
        assertEquals(first.serverDiff(), second.serverDiff());
        assertEquals(1, between.dryRuns("horizontalpodautoscalers"), "asked once for this resource version: " + between.samples());
        assertEquals(0, between.writes(), between.samples().toString());
    }

    @Test void aChangeSomeoneElseMadeIsWhatTheServerAnswers() {
        String ns = cluster.newNamespace("edited");
        Manifest hpa = autoscaler(ns, 2);
        applier.execute(new Stage("apply", "", List.of(serverSide(create(RealCluster.NAME, hpa)))));
        cluster.admin().autoscaling().v2().horizontalPodAutoscalers().inNamespace(ns).withName("web").edit(h -> {
            h.getSpec().setMinReplicas(3);
            return h;
        });

        LiveObject live = observed(hpa);

        assertEquals(List.of("spec.minReplicas"), live.serverDiff().fields());
    }

    @Test void nothingIsAskedOfAnObjectFromOtherGitContentOrThatWindlassFindsUnchanged() {
        String ns = cluster.newNamespace("other");
        Manifest applied = autoscaler(ns, 2);
        applier.execute(new Stage("apply", "", List.of(serverSide(create(RealCluster.NAME, applied)))));

        RequestCounts before = cluster.counts();
        LiveObject changedInGit = observed(autoscaler(ns, 3));
        RequestCounts between = cluster.countsSince(before);

        assertNull(changedInGit.serverDiff(), "Git changed: the planner updates it anyway, nothing to confirm");
        assertEquals(0, between.dryRuns("horizontalpodautoscalers"));
    }
}
