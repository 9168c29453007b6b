/**
 * Pull-request review of plans, in the running engine: {@link ReviewTargets} finds the branches and pull request
 * heads to review, {@link ReviewPlanning} plans the merge of each into the main branch, {@link ReviewPass} records the
 * plan on the status branch and publishes it on the Git host, and {@link Pinning} compares what a merge executes with
 * what was reviewed.
 */
package dev.windlass.engine.review;
