/** The one question every writer asks before it writes to a cluster or the status branch: {@link dev.windlass.policy.fence.WriteFence}. */
package dev.windlass.policy.fence;
