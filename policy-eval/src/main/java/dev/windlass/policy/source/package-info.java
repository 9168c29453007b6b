/** What the Git side hands to evaluation: a read-only {@link dev.windlass.policy.source.Snapshot} of one commit and the paths that changed. */
package dev.windlass.policy.source;
