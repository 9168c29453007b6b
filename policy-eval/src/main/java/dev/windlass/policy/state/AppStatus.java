package dev.windlass.policy.state;

import java.util.List;

/**
 * An application as recorded on the status branch ({@code status/apps/<name>.yaml}).
 *
 * @param definedIn the file that declared it: if that file breaks, the app is held, not deleted
 * @param prune     its prune setting when last seen, needed to clean up after it is deleted from Git
 */
public record AppStatus(String name, String definedIn, String revision, String source, boolean prune,
                        List<Condition> conditions, List<String> placement, List<TargetStatus> targets,
                        List<String> diagnostics) {
    public AppStatus {
        conditions = conditions == null ? List.of() : List.copyOf(conditions);
        placement = placement == null ? List.of() : List.copyOf(placement);
        targets = targets == null ? List.of() : List.copyOf(targets);
        diagnostics = diagnostics == null ? List.of() : List.copyOf(diagnostics);
    }

    public TargetStatus target(String cluster) {
        return targets.stream().filter(t -> t.cluster().equals(cluster)).findFirst().orElse(null);
    }

    public Condition condition(String type) {
        return conditions.stream().filter(c -> c.type().equals(type)).findFirst().orElse(null);
    }
}
