/**
 * Leader election on a Kubernetes {@code Lease} in the management cluster (fabric8's {@code LeaderElector} with a
 * {@code LeaseLock}), and the write fence it gives the engine: only the holder runs passes, and it stops writing once
 * its lease may no longer be relied on. See docs/architecture.md, "Several replicas".
 */
package dev.windlass.engine.lease;
