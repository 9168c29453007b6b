package dev.windlass.policy.state;

import java.util.ArrayList;
import java.util.List;

/**
 * Everything the engine remembers about an application's failovers ({@code failover:} in its status file).
 *
 * @param evictions      clusters the application was moved off and that are not back in its pool yet
 * @param history        completed failovers, oldest first, at most the policy's historyLimit
 * @param failedAttempts failovers that never reached a healthy placement, oldest first, same limit
 * @param orphanedOn     clusters where a failover with purgeMode Never left a copy running, unmanaged
 */
public record FailoverMemory(List<EvictionTask> evictions, List<FailoverRecord> history, List<FailoverRecord> failedAttempts,
                             List<String> orphanedOn) {
    public static final FailoverMemory EMPTY = new FailoverMemory(List.of(), List.of(), List.of(), List.of());

    public FailoverMemory {
        evictions = evictions == null ? List.of() : List.copyOf(evictions);
        history = history == null ? List.of() : List.copyOf(history);
        failedAttempts = failedAttempts == null ? List.of() : List.copyOf(failedAttempts);
        orphanedOn = orphanedOn == null ? List.of() : List.copyOf(orphanedOn);
    }

    public boolean isEmpty() {
        return evictions.isEmpty() && history.isEmpty() && failedAttempts.isEmpty() && orphanedOn.isEmpty();
    }

    public EvictionTask eviction(String fromCluster) {
        return evictions.stream().filter(t -> t.fromCluster().equals(fromCluster)).findFirst().orElse(null);
    }

    /** {@code list} with {@code record} appended, keeping the newest {@code limit}. */
    public static List<FailoverRecord> appended(List<FailoverRecord> list, FailoverRecord record, int limit) {
        List<FailoverRecord> out = new ArrayList<>(list);
        out.add(record);
        while (out.size() > Math.max(1, limit)) out.remove(0);
        return out;
    }
}
