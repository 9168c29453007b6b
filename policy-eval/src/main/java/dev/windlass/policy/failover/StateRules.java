package dev.windlass.policy.failover;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.FailoverPolicy.StateRule;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.observe.ClusterObservation;
import dev.windlass.policy.observe.LiveObject;
import dev.windlass.policy.state.PreservedValue;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Reads an application's state rules on one cluster, never from a Secret. Each rule is tried on the application's objects in a
 * stable order (by identity); the first object where its path yields one value gives it. A rule that matches
 * nothing is reported as such, never filled in.
 */
final class StateRules {
    private StateRules() {}

    record Reading(List<PreservedValue> values, List<String> problems) {}

    static Reading read(Application app, List<StateRule> rules, ClusterObservation obs) {
        List<PreservedValue> values = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        // Never a Secret: what a rule reads is written to the status branch and as labels on other clusters.
        List<Manifest> objects = app.manifests().stream().filter(m -> !m.implicit() && !isSecret(m))
                .sorted(Comparator.comparing(Manifest::ref)).toList();
        for (StateRule rule : rules) {
            StatePath path = StatePath.compile(rule.jsonPath());
            PreservedValue found = null;
            for (Manifest m : objects) {
                LiveObject live = obs.objects().get(m.ref());
                if (live == null) continue;
                StatePath.Read r = path.read(live.body());
                if (r.found()) {
                    found = new PreservedValue(rule.aliasLabelName(), r.value(), m.ref().toString());
                    break;
                }
            }
            if (found != null) values.add(found);
            else problems.add(rule.aliasLabelName() + ": " + rule.jsonPath() + " matched nothing on any object of " + app.name()
                    + " on " + obs.cluster() + "; the label is not set");
        }
        return new Reading(values, problems);
    }

    static boolean isSecret(Manifest m) { return m.ref().group().isEmpty() && m.ref().kind().equals("Secret"); }

    /** The values last observed on a cluster that stopped answering, for the rules asked. */
    static Reading remembered(List<StateRule> rules, List<PreservedValue> observed, String cluster, String state) {
        List<PreservedValue> values = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (StateRule rule : rules) {
            PreservedValue v = observed.stream().filter(o -> o.label().equals(rule.aliasLabelName())).findFirst().orElse(null);
            if (v != null) values.add(v);
            else problems.add(rule.aliasLabelName() + ": no value of " + rule.jsonPath() + " was observed on " + cluster
                    + " before it became " + state + "; the label is not set");
        }
        return new Reading(values, problems);
    }
}
