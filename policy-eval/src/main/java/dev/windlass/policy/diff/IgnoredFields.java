package dev.windlass.policy.diff;

import dev.windlass.policy.model.IgnoreDifferences;
import dev.windlass.policy.model.ObjectRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What an Application's {@code spec.ignoreDifferences} means for one object: the fields left out when Windlass looks
 * for drift, and the live values it sends for them when it updates the object, so that the controller that owns them
 * (an autoscaler, a webhook) keeps them.
 */
public final class IgnoredFields {
    private IgnoredFields() {}

    /** {@code desired} without the fields the rules ignore for {@code ref}: what drift is looked for in. */
    public static Map<String, Object> leftOut(ObjectRef ref, Map<String, Object> desired, Map<String, Object> live,
                                              List<IgnoreDifferences> rules) {
        Map<String, Object> out = desired;
        for (FieldLocation at : locations(ref, live, rules)) out = at.removedFrom(out);
        return out;
    }

    /**
     * {@code desired} with each ignored field that {@code live} has set to the live value: what an update sends. A
     * field the live object does not have keeps Git's value.
     */
    public static Map<String, Object> liveValuesKept(ObjectRef ref, Map<String, Object> desired, Map<String, Object> live,
                                                     List<IgnoreDifferences> rules) {
        Map<String, Object> out = desired;
        for (FieldLocation at : locations(ref, live, rules)) {
            Object value = at.in(live);
            if (value != null) out = at.withValue(out, value);
        }
        return out;
    }

    /** Whether any rule names this object. */
    public static boolean any(ObjectRef ref, List<IgnoreDifferences> rules) {
        return rules.stream().anyMatch(r -> r.matches(ref));
    }

    private static List<FieldLocation> locations(ObjectRef ref, Map<String, Object> live, List<IgnoreDifferences> rules) {
        List<FieldLocation> out = new ArrayList<>();
        for (IgnoreDifferences rule : rules) {
            if (!rule.matches(ref)) continue;
            for (String pointer : rule.jsonPointers()) {
                FieldLocation at = FieldLocation.ofPointer(pointer);
                if (at != null) out.add(at);
            }
            if (live != null) out.addAll(ManagedFields.ownedBy(live, rule.managedFieldsManagers()));
        }
        return out;
    }
}
