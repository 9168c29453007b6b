package dev.windlass.policy.review;

import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.observe.ObservedState;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Plan;
import java.util.List;

/**
 * Everything a review of one branch is made from. The head side is the merge of the branch into the main branch
 * as it is now; the base side is the main branch itself, planned against the same observation and engine state,
 * so the difference between the two plans is the branch's doing.
 *
 * @param ref        what is reviewed, as a reader names it: a branch ({@code feature/a}) or {@code pull/12}
 * @param pull       the pull request number, 0 when none is known
 * @param conflicts  paths that conflict with the main branch; when not empty there is no head plan
 * @param dryRun     what the API servers said about the head plan's actions
 */
public record ReviewInput(String ref, int pull, String mainBranch, String baseCommit, String headCommit, String mergeCommit,
                          List<String> conflicts, DesiredState base, Plan basePlan, DesiredState head, Plan headPlan,
                          ObservedState observed, List<ActionResult> dryRun) {

    public ReviewInput {
        conflicts = List.copyOf(conflicts);
        dryRun = dryRun == null ? List.of() : List.copyOf(dryRun);
    }

    public static ReviewInput conflicted(String ref, int pull, String mainBranch, String baseCommit, String headCommit, List<String> conflicts) {
        return new ReviewInput(ref, pull, mainBranch, baseCommit, headCommit, null, conflicts, null, null, null, null, null, List.of());
    }

    public boolean mergeable() { return conflicts.isEmpty() && headPlan != null; }

    /** Validation errors, a server refusing an action, or a conflict: the review's commit status is failure. */
    public boolean failing() {
        return !mergeable() || headPlan.hasErrors() || dryRun.stream().anyMatch(r -> !r.succeeded());
    }
}
