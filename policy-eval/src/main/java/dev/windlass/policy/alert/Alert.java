package dev.windlass.policy.alert;

import dev.windlass.policy.model.LabelSelector;
import dev.windlass.policy.model.SourceLocation;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which events go to which provider ({@code kind: Alert}). Every filter must hold.
 *
 * @param eventKinds      the kinds it takes; empty: every kind
 * @param severity        the least severity it takes
 * @param appSelector     applications by label; null: any application, and events about no application
 * @param clusterSelector clusters by label; null: any cluster, and events about no cluster
 */
public record Alert(String name, String providerRef, Set<AlertKind> eventKinds, Severity severity, LabelSelector appSelector,
                    LabelSelector clusterSelector, SourceLocation location) {
    public Alert {
        eventKinds = Set.copyOf(eventKinds);
    }

    /** Whether {@code e} passes every filter; {@code appLabels}/{@code clusterLabels} are its application's and cluster's labels. */
    public boolean takes(AlertEvent e, Map<String, String> appLabels, Map<String, String> clusterLabels) {
        if (!eventKinds.isEmpty() && !eventKinds.contains(e.kind())) return false;
        if (e.severity().compareTo(severity) < 0) return false;
        if (appSelector != null && (e.app().isEmpty() || appLabels == null || !appSelector.matches(appLabels))) return false;
        return clusterSelector == null || !e.cluster().isEmpty() && clusterLabels != null && clusterSelector.matches(clusterLabels);
    }

    public static List<String> kindNames() { return java.util.Arrays.stream(AlertKind.values()).map(Enum::name).toList(); }
}
