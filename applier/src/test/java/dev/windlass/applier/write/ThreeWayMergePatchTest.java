package dev.windlass.applier.write;

import static dev.windlass.applier.support.Fixtures.yaml;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The patch as data: what is sent, what is removed, what is left to others. */
class ThreeWayMergePatchTest {

    @Test void nothingToSendWhenLiveHoldsEverythingGitSays() {
        var desired = yaml("{spec: {replicas: 2, template: {spec: {containers: [{name: a, image: x}]}}}}");
        // The server added defaults, inside list items too, and somebody added an annotation.
        var live = yaml("""
                metadata: {annotations: {note: hi}, uid: u-1}
                spec:
                  replicas: 2
                  progressDeadlineSeconds: 600
                  template: {spec: {containers: [{name: a, image: x, imagePullPolicy: Always}]}}
                """);

        assertTrue(ThreeWayMergePatch.between(desired, desired, live).isEmpty());
    }

    @Test void fieldGitDroppedIsRemovedAndForeignFieldIsKept() {
        var lastApplied = yaml("{metadata: {labels: {tier: web}}, spec: {replicas: 2, paused: false}}");
        var desired = yaml("{metadata: {labels: {}}, spec: {replicas: 2}}");
        var live = yaml("{metadata: {labels: {tier: web, team: ops}}, spec: {replicas: 2, paused: false}}");

        var patch = ThreeWayMergePatch.between(lastApplied, desired, live);

        assertEquals(yaml("{metadata: {labels: {tier: null}}, spec: {paused: null}}"), patch);
        assertEquals(List.of("metadata.labels.tier (removed)", "spec.paused (removed)"), ThreeWayMergePatch.paths(patch));
    }

    @Test void fieldAlreadyGoneLiveIsNotRemovedAgain() {
        var lastApplied = yaml("{spec: {replicas: 2, paused: false}}");
        var desired = yaml("{spec: {replicas: 2}}");
        var live = yaml("{spec: {replicas: 2}}");

        assertTrue(ThreeWayMergePatch.between(lastApplied, desired, live).isEmpty());
    }

    @Test void changedListIsSentWhole() {
        var lastApplied = yaml("{spec: {ports: [{port: 80}, {port: 443}]}}");
        var desired = yaml("{spec: {ports: [{port: 80}]}}");
        var live = yaml("{spec: {ports: [{port: 80, protocol: TCP}, {port: 443, protocol: TCP}]}}");

        assertEquals(Map.of("spec", Map.of("ports", List.of(Map.of("port", 80)))),
                ThreeWayMergePatch.between(lastApplied, desired, live));
    }

    @Test void fieldRemovedFromAListItemInGitResendsTheList() {
        var lastApplied = yaml("{env: [{name: A, value: '1'}]}");
        var desired = yaml("{env: [{name: A}]}");
        var live = yaml("{env: [{name: A, value: '1'}]}");

        assertEquals(desired, ThreeWayMergePatch.between(lastApplied, desired, live));
    }

    @Test void listChangedLiveIsRestored() {
        var desired = yaml("{args: [--port=80]}");
        var live = yaml("{args: [--port=80, --debug]}");

        assertEquals(desired, ThreeWayMergePatch.between(desired, desired, live));
    }

    @Test void numbersCompareByValue() {
        Map<String, Object> desired = Map.of("spec", Map.of("replicas", 3));
        Map<String, Object> live = Map.of("spec", Map.of("replicas", 3L));

        assertTrue(ThreeWayMergePatch.between(desired, desired, live).isEmpty());
    }

    @Test void scalarDriftIsCorrected() {
        var desired = yaml("{spec: {replicas: 3}}");
        var live = yaml("{spec: {replicas: 5}}");

        assertEquals(desired, ThreeWayMergePatch.between(desired, desired, live));
    }
}
