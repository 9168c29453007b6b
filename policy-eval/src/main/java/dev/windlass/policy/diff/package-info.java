/** Comparing desired objects with what is on a cluster: content hashes and the fields that differ. */
package dev.windlass.policy.diff;
