package dev.windlass.policy.state;

import java.util.List;

/** A cluster as recorded on the status branch ({@code status/clusters/<name>.yaml}). */
public record ClusterStatus(String name, String definedIn, String reachability, String message,
                            String applyStrategy, int nodes, int readyNodes, List<Condition> conditions) {
    public ClusterStatus {
        conditions = conditions == null ? List.of() : List.copyOf(conditions);
        message = message == null ? "" : message;
    }
}
