package dev.windlass.policy.remediation;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.observe.ObservedTarget;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.ActionReason;
import dev.windlass.policy.plan.Operation;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The actions remediation takes on a target, as plan actions of no application: merge patches (the mark, a cordon, a
 * restart), a drain, a delete. Each reason names the policy, so the plan and a failed action say whose step it was.
 */
final class TargetActions {
    private final String policy;
    private final String cluster;

    TargetActions(String policy, String cluster) {
        this.policy = policy;
        this.cluster = cluster;
    }

    /** Puts the {@value Remediations#MARK} annotation on, saying why. */
    Action mark(ObservedTarget t, String text) {
        return patch(t, Map.of("metadata", Map.of("annotations", Map.of(Remediations.MARK, text))), ActionReason.Step.Mark, text);
    }

    /** Takes the mark off. */
    Action unmark(ObservedTarget t, String why) {
        return patch(t, Map.of("metadata", Map.of("annotations", nullValue(Remediations.MARK))), ActionReason.Step.Unmark, why);
    }

    Action cordon(ObservedTarget t, String why) {
        return patch(t, Map.of("spec", Map.of("unschedulable", true)), ActionReason.Step.Cordon, why);
    }

    /** Uncordons the node and takes its mark off, in one patch. */
    Action uncordon(ObservedTarget t, String why) {
        return patch(t, Map.of("metadata", Map.of("annotations", nullValue(Remediations.MARK)), "spec", Map.of("unschedulable", false)),
                ActionReason.Step.Uncordon, why);
    }

    Action drain(ObservedTarget t, String why) {
        return new Action("", cluster, ref(t), t.kind().apiVersion(), Operation.Drain, reason(ActionReason.Step.Drain, why), List.of(), null,
                Application.ApplyStrategy.ClientSide, false);
    }

    Action restart(ObservedTarget t, String at, String why) {
        return patch(t, Map.of("spec", Map.of("template", Map.of("metadata", Map.of("annotations", Map.of(Remediations.RESTARTED_AT, at))))),
                ActionReason.Step.Restart, why);
    }

    Action delete(ObservedTarget t, String why) {
        return new Action("", cluster, ref(t), t.kind().apiVersion(), Operation.Delete, reason(ActionReason.Step.Delete, why), List.of(), null,
                Application.ApplyStrategy.ClientSide, false);
    }

    private ActionReason reason(ActionReason.Step step, String why) {
        return new ActionReason.Remediation(policy, step, why);
    }

    private Action patch(ObservedTarget t, Map<String, Object> patch, ActionReason.Step step, String why) {
        Manifest body = new Manifest(ref(t), t.kind().apiVersion(), patch, null, "", 0, Manifest.ApplyMode.ALWAYS,
                Manifest.GcPolicy.NEVER, false);
        return new Action("", cluster, ref(t), t.kind().apiVersion(), Operation.Patch, reason(step, why),
                List.of(), body, Application.ApplyStrategy.ClientSide, false);
    }

    private static ObjectRef ref(ObservedTarget t) {
        return new ObjectRef(ObjectRef.groupOf(t.kind().apiVersion()), t.kind().kind(), t.namespace(), t.name());
    }

    /** A merge patch's "remove this key": a map that holds a null. */
    private static Map<String, Object> nullValue(String key) {
        Map<String, Object> m = new HashMap<>();
        m.put(key, null);
        return Collections.unmodifiableMap(m);
    }
}
