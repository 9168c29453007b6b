package dev.windlass.policy.parse;

import dev.windlass.policy.model.FluxSettings;
import dev.windlass.policy.model.LabelSelector;
import dev.windlass.policy.text.Excerpt;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads {@code Settings.spec.flux}: which Windlass clusters the Flux objects of each folder are for.
 *
 * <pre>
 * flux:
 *   clusters:
 *     - path: clusters/{cluster}          # clusters/staging/ is for the Cluster named staging
 *     - path: fleet/prod                  # or a fixed folder, for clusters chosen by name and/or label
 *       clusterSelector: {matchLabels: {env: prod}}
 * </pre>
 */
final class FluxSettingsReader {
    private FluxSettingsReader() {}

    static FluxSettings read(Fields spec) {
        Fields flux = spec.object("flux");
        if (flux == null) return FluxSettings.NONE;
        List<FluxSettings.ClusterFolder> folders = new ArrayList<>();
        for (Fields entry : flux.objects("clusters")) {
            String path = entry.requiredString("path");
            List<String> names = entry.strings("clusterNames");
            LabelSelector selector = entry.has("clusterSelector") ? SelectorReader.read(entry, "clusterSelector") : null;
            if (path != null) {
                path = ApplicationReader.normalize(path);
                String problem = problem(path);
                if (problem != null) entry.error("path", "Settings.spec.flux.clusters.path " + Excerpt.quoted(path) + " " + problem);
                else if (!path.contains(FluxSettings.ClusterFolder.CLUSTER) && names.isEmpty() && selector == null) {
                    entry.errorHere("Settings.spec.flux.clusters entry for " + Excerpt.quoted(path) + " names no cluster: write "
                            + FluxSettings.ClusterFolder.CLUSTER + " for the folder segment that is the cluster's name"
                            + " (path: clusters/{cluster}), or give clusterNames and/or clusterSelector");
                } else {
                    folders.add(new FluxSettings.ClusterFolder(path, names, selector, entry.at()));
                }
            }
            entry.end();
        }
        flux.end();
        return new FluxSettings(folders);
    }

    /** What is wrong with a folder pattern, or null. */
    private static String problem(String path) {
        if (path.isEmpty()) return "is empty; give the folder, from the repo's root, that holds a cluster's Flux objects";
        int placeholders = 0;
        for (String segment : path.split("/")) {
            if (segment.equals("..") || segment.equals(".")) return "must be a folder of the repo, without '.' or '..'";
            if (segment.contains("{") || segment.contains("}") || segment.contains("*")) {
                if (!segment.equals(FluxSettings.ClusterFolder.CLUSTER)) {
                    return "may hold " + FluxSettings.ClusterFolder.CLUSTER + " only as a whole folder name (clusters/{cluster}), and no other pattern";
                }
                placeholders++;
            }
        }
        return placeholders > 1 ? "may hold " + FluxSettings.ClusterFolder.CLUSTER + " once" : null;
    }
}
