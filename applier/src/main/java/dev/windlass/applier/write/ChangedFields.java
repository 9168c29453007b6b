package dev.windlass.applier.write;

import dev.windlass.applier.kube.OwnershipMarks;
import dev.windlass.policy.diff.FieldDiff;
import java.util.List;
import java.util.Map;

/** Which fields a write changes, named for people: {@code spec.replicas, metadata.labels.tier}. */
final class ChangedFields {

    private ChangedFields() {}

    /**
     * Fields the prepared object sets that the live one does not have as written; what the server defaulted or
     * others added does not count, nor does a quantity the server spells differently ({@code 2000m} as {@code 2}).
     * Windlass's own bookkeeping annotations are left out: they follow the rest.
     */
    static List<String> between(PreparedObject prepared, Map<String, Object> live) {
        return withoutMarks(FieldDiff.differences(prepared.body(), live));
    }

    static List<String> withoutMarks(List<String> paths) {
        return paths.stream()
                .filter(p -> !p.startsWith("metadata.annotations." + OwnershipMarks.LAST_APPLIED)
                        && !p.startsWith("metadata.annotations." + OwnershipMarks.APPLIED_HASH))
                .toList();
    }

    /** At most five paths, then how many more. */
    static String summary(List<String> paths) {
        if (paths.isEmpty()) return "Windlass annotations";
        int shown = Math.min(paths.size(), 5);
        String head = String.join(", ", paths.subList(0, shown));
        return paths.size() > shown ? head + " and " + (paths.size() - shown) + " more" : head;
    }
}
