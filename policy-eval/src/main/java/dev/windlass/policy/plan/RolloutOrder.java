package dev.windlass.policy.plan;

import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.model.RolloutPolicy;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The order clusters get a new revision in, and their waves. Clusters go by group (in the policy's
 * order; unassigned ones last or not at all), then by name. A wave is a group for
 * ProgressivePerGroup, a batch of maxConcurrency clusters for Progressive, everything for All.
 */
record RolloutOrder(List<Entry> entries, List<String> excluded, int waves) {

    record Entry(String cluster, int group, String groupName, int wave) {}

    static RolloutOrder of(RolloutPolicy policy, List<String> placed, Map<String, Cluster> clusters) {
        List<Entry> ordered = new ArrayList<>();
        List<String> excluded = new ArrayList<>();
        for (String name : placed) {
            Cluster c = clusters.get(name);
            int g = -1;
            for (int i = 0; i < policy.groups().size(); i++) {
                if (c != null && policy.groups().get(i).clusterSelector().matches(c.labels())) g = i;
            }
            if (g < 0 && !policy.groups().isEmpty()) {
                if (policy.unassignedClusters() == RolloutPolicy.Unassigned.Exclude) {
                    excluded.add(name);
                    continue;
                }
                g = policy.groups().size() - 1;
            }
            String groupName = g < 0 ? "all" : policy.groups().get(g).name();
            ordered.add(new Entry(name, Math.max(g, 0), groupName, 0));
        }
        ordered.sort(Comparator.comparingInt(Entry::group).thenComparing(Entry::cluster));
        int concurrency = policy.maxConcurrency().atLeastOne(ordered.size());
        List<Entry> withWaves = new ArrayList<>();
        int waves = 0;
        int lastGroup = -1;
        for (int i = 0; i < ordered.size(); i++) {
            Entry e = ordered.get(i);
            int wave = switch (policy.type()) {
                case All -> 1;
                case Progressive -> i / concurrency + 1;
                case ProgressivePerGroup -> {
                    if (e.group() != lastGroup) waves++;
                    lastGroup = e.group();
                    yield waves;
                }
            };
            withWaves.add(new Entry(e.cluster(), e.group(), e.groupName(), wave));
        }
        int total = withWaves.stream().mapToInt(Entry::wave).max().orElse(0);
        return new RolloutOrder(withWaves, excluded, total);
    }

    Entry entry(String cluster) {
        return entries.stream().filter(e -> e.cluster().equals(cluster)).findFirst().orElse(null);
    }

    /** The label of a wave in status lines: the group name, or the clusters in it. */
    String waveLabel(int wave, RolloutPolicy.Type type) {
        List<Entry> in = entries.stream().filter(e -> e.wave() == wave).toList();
        if (type == RolloutPolicy.Type.ProgressivePerGroup && !in.isEmpty()) return in.get(0).groupName();
        return String.join(",", in.stream().map(Entry::cluster).toList());
    }
}
