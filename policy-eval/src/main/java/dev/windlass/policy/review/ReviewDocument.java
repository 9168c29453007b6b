package dev.windlass.policy.review;

import dev.windlass.policy.render.PlanDocument;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The review of a branch as data, for {@code windlass plan --base --head -o yaml|json}: which commits, whether it merges,
 * whether it fails, what the branch does to policies, and the plan of the merge with the API servers' dry-run answers.
 * Secret values never appear: the plan document carries no object bodies.
 */
public final class ReviewDocument {
    private ReviewDocument() {}

    public static String yaml(ReviewInput in) { return PlanDocument.yaml(view(in)); }

    public static String json(ReviewInput in) { return PlanDocument.json(view(in)); }

    static Map<String, Object> view(ReviewInput in) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("ref", in.ref());
        if (in.pull() > 0) m.put("pull", in.pull());
        m.put("base", in.mainBranch());
        m.put("baseCommit", in.baseCommit());
        m.put("headCommit", in.headCommit());
        m.put("mergeable", in.mergeable());
        m.put("failing", in.failing());
        if (!in.mergeable()) {
            m.put("conflicts", in.conflicts());
            return m;
        }
        m.put("mergeCommit", in.mergeCommit());
        m.put("policyEffects", PolicyEffects.of(in));
        m.put("plan", PlanDocument.view(in.headPlan(), in.dryRun()));
        return m;
    }
}
