package dev.windlass.policy.failover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.RepoFiles;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.FailoverPolicy;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.observe.ClusterObservation;
import dev.windlass.policy.state.Health;
import dev.windlass.policy.observe.LiveObject;
import dev.windlass.policy.parse.RepoParser;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What a state rule may read: never a Secret, whose values would go to the status branch and to other clusters' labels. */
class StateRulesTest {

    @Test void aRuleNeverReadsASecret() {
        Application app = RepoParser.parse(RepoFiles.inline(
                "clusters/a.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Cluster\nmetadata: {name: a}\nspec:\n  connection: {sandbox: {nodes: 1}}\n",
                "apps/db/app.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: db}\nspec:\n  namespace: db\n  placement: {clusterNames: [a]}\n",
                "apps/db/manifests/secret.yaml", "apiVersion: v1\nkind: Secret\nmetadata: {name: creds}\ndata: {password: aHVudGVyMg==}\n",
                "apps/db/manifests/config.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: offsets}\ndata: {offset: \"42\"}\n"))
                .apps().get("db");
        Map<ObjectRef, LiveObject> live = new HashMap<>();
        for (Manifest m : app.manifests()) if (!m.implicit()) live.put(m.ref(), new LiveObject(m.ref(), m.body(), Health.Healthy, ""));
        ClusterObservation obs = new ClusterObservation("a", dev.windlass.policy.state.Reachability.Reachable, "", live, Set.of("db"), List.of(), true, Map.of());

        StateRules.Reading r = StateRules.read(app, List.of(new FailoverPolicy.StateRule("windlass.dev/password", "{ .data.password }"),
                new FailoverPolicy.StateRule("windlass.dev/offset", "{ .data.offset }")), obs);

        assertEquals(List.of("windlass.dev/offset"), r.values().stream().map(v -> v.label()).toList(), "the ConfigMap's value only");
        assertEquals("42", r.values().get(0).value());
        assertTrue(r.problems().get(0).startsWith("windlass.dev/password: { .data.password } matched nothing"), r.problems().toString());
        assertTrue(r.values().stream().noneMatch(v -> v.value().contains("aHVudGVyMg")), "the Secret's value is never read");
    }
}
