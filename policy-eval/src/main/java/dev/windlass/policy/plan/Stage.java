package dev.windlass.policy.plan;

import java.util.List;

/**
 * One step of a plan. Actions are in execution order: by cluster, then Namespaces and CRDs first,
 * then {@code windlass.dev/wave}, then kind, then name (deletes in reverse).
 *
 * @param gate what must hold before this stage runs on a cluster, in words ("" when nothing)
 */
public record Stage(String name, String gate, List<Action> actions) {
    public Stage { actions = List.copyOf(actions); }

    public List<String> clusters() {
        return actions.stream().map(Action::cluster).distinct().sorted().toList();
    }
}
