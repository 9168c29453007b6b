package dev.windlass.engine.review;

import dev.windlass.engine.reconcile.CommitRevisions;
import dev.windlass.engine.reconcile.Fleet;
import dev.windlass.engine.reconcile.Kinds;
import dev.windlass.git.MergePreview;
import dev.windlass.git.Mirror;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.observe.KindRef;
import dev.windlass.policy.observe.DesiredObjects;
import dev.windlass.policy.observe.ObservedState;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Plan;
import dev.windlass.policy.plan.PlanMemo;
import dev.windlass.policy.plan.Planner;
import dev.windlass.policy.plan.Stage;
import dev.windlass.policy.remediation.Remediations;
import dev.windlass.policy.review.ReviewInput;
import dev.windlass.policy.state.EngineState;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Plans one review: the head merged into the main branch as it is now, against the live clusters and the engine's
 * current state (rollout progress, evictions, suspensions, invalid revisions), with the API servers' dry-run of
 * every action. The main branch is planned against the same observation, so the two plans differ only by the branch.
 * Clusters are observed as the last pass connected them: a cluster the branch adds is connected once it is merged.
 */
public final class ReviewPlanning {
    private ReviewPlanning() {}

    /** @return the review, or null when the head is already part of the main branch (nothing to review) */
    public static ReviewInput plan(Mirror mirror, String mainBranch, String mainCommit, DesiredState main, ReviewTarget target,
                                   EngineState state, Fleet fleet, Instant now) throws IOException {
        MergePreview preview = mirror.previewMerge(mainCommit, target.head());
        if (preview instanceof MergePreview.UpToDate) return null;
        if (preview instanceof MergePreview.Conflicted c) {
            return ReviewInput.conflicted(target.ref(), target.pull(), mainBranch, mainCommit, target.head(), c.paths());
        }
        MergePreview.Merged merged = (MergePreview.Merged) preview;
        DesiredState head = dev.windlass.engine.render.AppRendering.shared().read(mirror.snapshot(merged.commit()), state);
        ObservedState observed = fleet.observe(union(Kinds.toObserve(main, state), Kinds.toObserve(head, state)),
                union(Remediations.watched(main), Remediations.watched(head)), DesiredObjects.of(main));
        CommitRevisions revisions = new CommitRevisions(mirror);
        // The head differs from main only where the branch changed something: the rest of its targets are main's.
        PlanMemo memo = new PlanMemo();
        Plan basePlan = Planner.plan(main, observed, state, revisions, now, memo);
        Plan headPlan = Planner.plan(head, observed, state, revisions, now, memo);
        List<ActionResult> dryRun = new ArrayList<>();
        for (Stage stage : headPlan.stages()) dryRun.addAll(fleet.dryRun(stage, new TreeSet<>(stage.clusters())));
        return new ReviewInput(target.ref(), target.pull(), mainBranch, mainCommit, target.head(), merged.commit(), List.of(),
                main, basePlan, head, headPlan, observed, dryRun);
    }

    static Map<String, Set<KindRef>> union(Map<String, Set<KindRef>> a, Map<String, Set<KindRef>> b) {
        Map<String, Set<KindRef>> out = new TreeMap<>();
        a.forEach((c, k) -> out.computeIfAbsent(c, x -> new TreeSet<>()).addAll(k));
        b.forEach((c, k) -> out.computeIfAbsent(c, x -> new TreeSet<>()).addAll(k));
        return out;
    }
}
