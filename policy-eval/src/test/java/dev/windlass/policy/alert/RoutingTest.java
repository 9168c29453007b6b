package dev.windlass.policy.alert;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.windlass.policy.RepoFiles;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.parse.RepoParser;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which provider gets which event, on the examples repo (web: frontend, api: backend; clusters eu-1, eu-2, us-1). */
class RoutingTest {
    static final String ALERTS = """
            apiVersion: windlass.dev/v1alpha1
            kind: Provider
            metadata: {name: hook}
            spec: {type: webhook, address: "https://hooks.example.com/x"}
            ---
            apiVersion: windlass.dev/v1alpha1
            kind: Provider
            metadata: {name: chat}
            spec: {type: slack, secretRef: {name: chat}}
            ---
            apiVersion: windlass.dev/v1alpha1
            kind: Alert
            metadata: {name: frontend-errors}
            spec:
              providerRef: {name: hook}
              severity: error
              applicationSelector: {matchLabels: {tier: frontend}}
            ---
            apiVersion: windlass.dev/v1alpha1
            kind: Alert
            metadata: {name: eu-clusters}
            spec:
              providerRef: {name: chat}
              eventKinds: [ClusterUnreachable, ClusterReachable]
              clusterSelector: {matchLabels: {region: eu}}
            ---
            apiVersion: windlass.dev/v1alpha1
            kind: Alert
            metadata: {name: everything}
            spec: {providerRef: {name: hook}}
            """;

    static DesiredState desired() {
        List<String> files = new ArrayList<>();
        var examples = RepoFiles.examples();
        examples.files().keySet().forEach(p -> {
            files.add(p);
            files.add(new String(examples.read(p), StandardCharsets.UTF_8));
        });
        files.add("alerts/alerts.yaml");
        files.add(ALERTS);
        return RepoParser.parse(RepoFiles.inline(files.toArray(String[]::new)));
    }

    static AlertEvent event(AlertKind kind, String app, String cluster) {
        return new AlertEvent(kind + app + cluster, kind, kind.severity(), app, cluster, "r", "c", 0, "", "", Instant.EPOCH);
    }

    @Test
    void eachEventGoesOnceToEachProviderThatTakesIt() {
        DesiredState d = desired();
        List<Routing.Delivery> out = Routing.route(List.of(
                event(AlertKind.WaveFailed, "web", "eu-1"),
                event(AlertKind.ClusterUnreachable, "", "eu-1"),
                event(AlertKind.ClusterUnreachable, "", "us-1"),
                event(AlertKind.WaveStarted, "api", "")), d);
        assertEquals(List.of("WaveFailedwebeu-1 -> hook", "ClusterUnreachableeu-1 -> chat", "ClusterUnreachableeu-1 -> hook",
                        "ClusterUnreachableus-1 -> hook", "WaveStartedapi -> hook"),
                out.stream().map(x -> x.event().id() + " -> " + x.provider()).toList());
    }
}
