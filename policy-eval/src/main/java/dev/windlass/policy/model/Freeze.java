package dev.windlass.policy.model;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;

/**
 * A time (or an open-ended stretch) during which nothing covered is applied, pruned, corrected,
 * rolled out, failed over or remediated. Applications are chosen by {@code selector} and/or
 * {@code applications}; clusters by {@code clusterSelector} and/or {@code clusterNames}; leaving both
 * of a pair out means all.
 *
 * @param schedule a Quartz cron expression for when the window opens, or null: in force until removed
 * @param duration how long each window stays open (with a schedule)
 */
public record Freeze(String name, LabelSelector selector, List<String> applications, LabelSelector clusterSelector,
                     List<String> clusterNames, String schedule, Duration duration, ZoneId timeZone, String reason,
                     SourceLocation location) {

    public Freeze {
        applications = List.copyOf(applications);
        clusterNames = List.copyOf(clusterNames);
    }

    public boolean coversApp(String app, java.util.Map<String, String> labels) {
        if (selector == null && applications.isEmpty()) return true;
        return applications.contains(app) || selector != null && selector.matches(labels);
    }

    public boolean coversCluster(String cluster, java.util.Map<String, String> labels) {
        if (clusterSelector == null && clusterNames.isEmpty()) return true;
        return clusterNames.contains(cluster) || clusterSelector != null && clusterSelector.matches(labels);
    }
}
