package dev.windlass.policy.plan;

import dev.windlass.policy.model.Diagnostic;
import java.util.List;

/**
 * What the plan says about one application.
 *
 * @param clusters    where it is placed after this plan
 * @param removedFrom clusters it leaves (its objects there are pruned by its gc policies)
 * @param diagnostics its errors and warnings; with an error it gets no actions and is {@code Invalid}
 * @param definedIn   the file declaring it, remembered so a broken file never reads as a deletion
 * @param suspendedOn clusters where the application is suspended now, and what suspends it there
 */
public record AppPlan(String app, String revision, boolean valid, List<String> clusters, List<String> removedFrom,
                      List<TargetPlan> targets, List<Diagnostic> diagnostics, String definedIn, java.util.Map<String, dev.windlass.policy.suspension.Hold> suspendedOn) {
    public AppPlan {
        suspendedOn = suspendedOn == null ? java.util.Map.of() : java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(suspendedOn));
        clusters = List.copyOf(clusters);
        removedFrom = List.copyOf(removedFrom);
        targets = List.copyOf(targets);
        diagnostics = List.copyOf(diagnostics);
    }
}
