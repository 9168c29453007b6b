/** Revert pull requests for failed rollouts: the branch pushed to the config repo and the pull request asked of the Git host. */
package dev.windlass.engine.revert;
