/**
 * Revert pull requests: when a rollout of a revision fails, whether to offer the team a pull request that restores the
 * application's files to the last good revision ({@link dev.windlass.policy.revert.RevertProposals}), and what is
 * remembered of those offered ({@link dev.windlass.policy.revert.RevertRecord}). Pure: branches and calls are the engine's.
 */
package dev.windlass.policy.revert;
