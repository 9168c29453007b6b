package dev.windlass.policy.parse;

import dev.windlass.policy.text.Excerpt;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.LabelSelector;
import dev.windlass.policy.model.RolloutPolicy;
import dev.windlass.policy.model.RolloutPolicy.Amount;
import dev.windlass.policy.model.SourceLocation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Reads {@code kind: RolloutPolicy}. Nothing about a rollout is left to a silent default that changes who gets what when. */
final class RolloutPolicyReader {
    private RolloutPolicyReader() {}

    static RolloutPolicy read(YamlDoc doc, List<Diagnostic> out) {
        Envelope envelope = Envelope.read(doc, "RolloutPolicy", out);
        Fields root = envelope.root();
        Metadata meta = envelope.meta();
        Fields spec = envelope.spec();
        if (spec == null) {
            root.errorHere("RolloutPolicy.spec is required, with at least selector");
            return null;
        }
        int errors = out.size();
        if (!spec.has("selector")) spec.errorHere("RolloutPolicy.spec.selector is required: which applications it rolls out ({} for all)");
        LabelSelector selector = SelectorReader.read(spec, "selector");
        RolloutPolicy.Type type = spec.enumValue("type", RolloutPolicy.Type.class, RolloutPolicy.Type.Progressive);
        List<RolloutPolicy.Group> groups = new ArrayList<>();
        Map<String, Fields> names = new HashMap<>();
        for (Fields g : spec.objects("groups")) {
            String name = g.requiredString("name");
            LabelSelector s = g.has("clusterSelector") ? SelectorReader.read(g, "clusterSelector") : null;
            if (s == null) g.errorHere(g.name("clusterSelector") + " is required");
            g.end();
            if (name == null || s == null) continue;
            if (names.putIfAbsent(name, g) != null) g.error("name", "group " + Excerpt.quoted(name) + " appears twice in RolloutPolicy.spec.groups; group names are unique");
            groups.add(new RolloutPolicy.Group(name, s));
        }
        RolloutPolicy.Unassigned unassigned = spec.enumValue("unassignedClusters", RolloutPolicy.Unassigned.class, null);
        if (unassigned == null && !spec.has("unassignedClusters")) {
            if (groups.isEmpty()) unassigned = RolloutPolicy.Unassigned.LastGroup;
            else spec.errorHere("RolloutPolicy.spec.unassignedClusters is required with groups: say LastGroup or Exclude for clusters no group selects");
        }
        Amount concurrency = Amounts.read(spec, "maxConcurrency", new Amount(1, false), 1);
        Duration soak = duration(spec, "minSuccessTime", Duration.ZERO);
        Duration deadline = duration(spec, "progressDeadline", Duration.ofMinutes(10));
        Amount failures = Amounts.read(spec, "maxFailures", new Amount(0, false), 0);
        RolloutPolicy.OnFailure onFailure = spec.enumValue("onFailure", RolloutPolicy.OnFailure.class, RolloutPolicy.OnFailure.Pause);
        RolloutPolicy.RevertPullRequest revert = null;
        if (spec.has("revertPullRequest")) {
            Fields r = spec.object("revertPullRequest");
            if (r != null) {
                SourceLocation at = r.has("providerRef") ? r.at("providerRef") : spec.at("revertPullRequest");
                if (!r.has("providerRef")) {
                    r.errorHere("RolloutPolicy.spec.revertPullRequest.providerRef is required: {name: <a github or gitea Provider's metadata.name>}");
                } else {
                    Fields ref = r.object("providerRef");
                    if (ref != null) {
                        String name = ref.requiredString("name");
                        ref.end();
                        if (name != null) revert = new RolloutPolicy.RevertPullRequest(name, at);
                    }
                }
                r.end();
            }
        }
        if (deadline != null && deadline.isZero()) spec.error("progressDeadline", "RolloutPolicy.spec.progressDeadline must be longer than 0s");
        spec.end();
        if (meta == null || out.size() > errors || unassigned == null || concurrency == null || failures == null || soak == null || deadline == null) return null;
        return new RolloutPolicy(meta.name(), selector, type, groups, unassigned, concurrency, soak, deadline, failures, onFailure, doc.location(), revert);
    }

    private static Duration duration(Fields spec, String key, Duration fallback) {
        String text = spec.string(key, null);
        if (text == null) return spec.has(key) ? null : fallback;
        Duration d = Durations.parse(text);
        if (d == null) spec.error(key, Durations.problem("RolloutPolicy.spec." + key, text, "60s, 10m or 1h30m"));
        return d;
    }

}
