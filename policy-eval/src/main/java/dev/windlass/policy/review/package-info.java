/**
 * Pull-request review of plans: what merging a branch would do, rendered for reviewers ({@link ReviewMarkdown}),
 * the policy effects it has beyond object changes ({@link PolicyEffects}), and the comparison between a reviewed
 * plan and the plan later executed for the merge ({@link PlanDigest}). Pure, like the rest of policy-eval.
 */
package dev.windlass.policy.review;
