package dev.windlass.applier;

import static dev.windlass.applier.support.Fixtures.configMap;
import static dev.windlass.applier.support.Fixtures.create;
import static dev.windlass.applier.support.Fixtures.manifest;
import static dev.windlass.applier.support.Fixtures.serverSide;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.applier.support.RealCluster;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Outcome;
import dev.windlass.policy.plan.Stage;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A CRD and resources of its kind in one stage, against a real API server that serves the kind only once established. */
class CustomResourcesIT {

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

    @Test void aCrdAndAResourceOfItsKindInOneStageAreBothCreated() {
        String ns = cluster.newNamespace("crd");
        Stage stage = new Stage("apply", "", List.of(
                serverSide(create(RealCluster.NAME, crd("backups.windlass.example", "Backup", "backups"))),
                serverSide(create(RealCluster.NAME, backup(ns, "nightly")))));

        List<ActionResult> results = applier.execute(stage);

        assertEquals(List.of(Outcome.Created, Outcome.Created), results.stream().map(ActionResult::outcome).toList(), results.toString());
        var live = cluster.admin().genericKubernetesResources("windlass.example/v1", "Backup").inNamespace(ns).withName("nightly").get();
        assertNotNull(live, "the custom resource is on the cluster");
        assertEquals("0 3 * * *", ((java.util.Map<?, ?>) live.getAdditionalProperties().get("spec")).get("schedule"));
    }

    @Test void aResourceOfAKindNotServedFailsAloneAndTheRunGoesOn() {
        String ns = cluster.newNamespace("unserved");
        Stage stage = new Stage("apply", "", List.of(
                serverSide(create(RealCluster.NAME, manifest("""
                        apiVersion: nowhere.example/v1
                        kind: Ghost
                        metadata: {name: boo, namespace: %s}
                        spec: {}
                        """.formatted(ns)))),
                serverSide(create(RealCluster.NAME, configMap(ns, "after", "1")))));

        List<ActionResult> results = applier.execute(stage);

        assertEquals(Outcome.Failed, results.get(0).outcome(), results.get(0).message());
        assertTrue(results.get(0).transientFailure(), "the kind may be served later: " + results.get(0).message());
        assertEquals("the cluster does not serve Ghost in nowhere.example/v1 (yet): is its CustomResourceDefinition installed?",
                results.get(0).message());
        assertEquals(Outcome.Created, results.get(1).outcome(), results.get(1).message());
        assertNotNull(cluster.admin().configMaps().inNamespace(ns).withName("after").get());
    }

    static Manifest crd(String name, String kind, String plural) {
        return manifest("""
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata: {name: %s}
                spec:
                  group: windlass.example
                  scope: Namespaced
                  names: {kind: %s, plural: %s, singular: %s}
                  versions:
                  - name: v1
                    served: true
                    storage: true
                    schema:
                      openAPIV3Schema:
                        type: object
                        properties:
                          spec:
                            type: object
                            properties:
                              schedule: {type: string}
                """.formatted(name, kind, plural, kind.toLowerCase()));
    }

    static Manifest backup(String ns, String name) {
        return manifest("""
                apiVersion: windlass.example/v1
                kind: Backup
                metadata: {name: %s, namespace: %s}
                spec: {schedule: "0 3 * * *"}
                """.formatted(name, ns));
    }
}
