package dev.windlass.policy.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.model.LabelSelector;
import dev.windlass.policy.model.LabelSelector.Operator;
import dev.windlass.policy.model.LabelSelector.Requirement;
import dev.windlass.policy.model.SourceLocation;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class PlacementTest {
    static final Map<String, Cluster> FLEET = new TreeMap<>(Map.of(
            "eu-1", cluster("eu-1", Map.of("region", "eu", "env", "prod", "canary", "true")),
            "eu-2", cluster("eu-2", Map.of("region", "eu", "env", "prod")),
            "us-1", cluster("us-1", Map.of("region", "us", "env", "prod")),
            "lab", cluster("lab", Map.of("env", "lab"))));

    static Cluster cluster(String name, Map<String, String> labels) {
        return new Cluster(name, labels, new Cluster.Sandbox(1, 1), false, 60, SourceLocation.file("clusters/" + name + ".yaml"));
    }

    static Application app(LabelSelector selector, List<String> names, int max) {
        return new Application("web", Map.of(), "apps/web/manifests", "web", new Application.Placement(selector, names, max),
                Application.SyncPolicy.DEFAULT, List.of(), false, List.of(), "rev", List.of(), SourceLocation.file("apps/web/app.yaml"), Map.of());
    }

    @Test
    void matchLabelsAndExpressions() {
        assertEquals(List.of("eu-1", "eu-2"), Placement.place(app(new LabelSelector(Map.of("region", "eu"), List.of()), List.of(), 0), FLEET, List.of()));
        var notCanary = new LabelSelector(Map.of("env", "prod"), List.of(new Requirement("canary", Operator.DoesNotExist, List.of())));
        assertEquals(List.of("eu-2", "us-1"), Placement.place(app(notCanary, List.of(), 0), FLEET, List.of()));
        var notEu = new LabelSelector(Map.of(), List.of(new Requirement("region", Operator.NotIn, List.of("eu"))));
        assertEquals(List.of("lab", "us-1"), Placement.place(app(notEu, List.of(), 0), FLEET, List.of()), "NotIn matches clusters without the label");
        var inUs = new LabelSelector(Map.of(), List.of(new Requirement("region", Operator.In, List.of("us", "ap"))));
        assertEquals(List.of("us-1"), Placement.place(app(inUs, List.of(), 0), FLEET, List.of()));
        assertEquals(List.of("eu-1", "eu-2", "lab", "us-1"), Placement.place(app(LabelSelector.EVERYTHING, List.of(), 0), FLEET, List.of()));
    }

    @Test
    void namesAreAUnionWithTheSelector() {
        assertEquals(List.of("lab", "us-1"), Placement.place(app(new LabelSelector(Map.of("region", "us"), List.of()), List.of("lab"), 0), FLEET, List.of()));
        assertEquals(List.of("lab"), Placement.place(app(null, List.of("lab"), 0), FLEET, List.of()), "no selector: only the names");
    }

    @Test
    void maxClustersIsStableAndKeepsWhereTheAppRuns() {
        var prod = new LabelSelector(Map.of("env", "prod"), List.of());
        assertEquals(List.of("eu-1", "eu-2"), Placement.place(app(prod, List.of(), 2), FLEET, List.of()), "by name when new");
        assertEquals(List.of("eu-2", "us-1"), Placement.place(app(prod, List.of(), 2), FLEET, List.of("us-1", "eu-2")), "keeps its clusters");
        assertEquals(List.of("eu-1", "us-1"), Placement.place(app(prod, List.of(), 2), FLEET, List.of("us-1", "lab")),
                "a current cluster that no longer matches is replaced by the first eligible one");
    }
}
