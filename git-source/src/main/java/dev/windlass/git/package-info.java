/**
 * The Git side of Windlass: a bare local {@link dev.windlass.git.Mirror} of the config repository that hands out
 * {@link dev.windlass.policy.source.Snapshot}s without checkouts, and writers that land commits on a remote branch
 * with compare-and-set pushes so concurrent engines never lose each other's entries.
 */
package dev.windlass.git;
