package dev.windlass.engine.status.v1;

import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.state.Condition;
import dev.windlass.policy.state.EngineState;
import dev.windlass.policy.state.TargetStatus;
import dev.windlass.policy.model.TargetKey;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code status/fleet.yaml}: the config commit the state is from, one line per cluster and per application on a
 * cluster (read by people; the engine reads back only {@code source} and {@code policyFiles}), and the policy files of
 * the last pass (null when none).
 */
public record FleetV1(String source, Map<String, String> clusters, Map<String, String> apps, List<String> policyFiles) {
    public static FleetV1 of(EngineState state) {
        Map<String, String> clusters = new LinkedHashMap<>();
        state.clusters().forEach((name, c) -> clusters.put(name, c.reachability() + ", " + c.readyNodes() + "/" + c.nodes() + " nodes ready"));
        Map<String, String> apps = new LinkedHashMap<>();
        state.apps().forEach((name, a) -> {
            if (a.targets().isEmpty()) apps.put(name, readyText(a));
            for (TargetStatus t : a.targets()) {
                apps.put(new TargetKey(name, t.cluster()).toString(), t.sync() + ", " + t.health() + ", " + (t.revision().isEmpty() ? "-" : t.revision()));
            }
        });
        return new FleetV1(state.source(), clusters, apps, state.policyFiles().isEmpty() ? null : List.copyOf(state.policyFiles()));
    }

    private static String readyText(AppStatus a) {
        Condition c = a.condition("Ready");
        return c == null ? "Unknown" : c.reason();
    }
}
