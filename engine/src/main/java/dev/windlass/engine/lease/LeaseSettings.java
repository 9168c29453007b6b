package dev.windlass.engine.lease;

import java.time.Duration;

/**
 * Which Lease a replica competes for and how it keeps it.
 *
 * @param namespace     the Lease's namespace in the management cluster
 * @param name          the Lease's name: the whole fleet's lease (shard leases, later, are {@code <name>-shard-<n>})
 * @param identity      this replica's holder identity, unique per process
 * @param leaseDuration how long others wait, from when they saw the last renewal, before taking the lease over
 * @param renewDeadline how long the holder keeps trying to renew before it gives the lease up
 * @param retryPeriod   how often candidates try to acquire, and the holder renews
 * @param safetyMargin  how much sooner than {@code leaseDuration} after its last renewal the holder stops writing:
 *                      covers a write in flight and the rates of two hosts' monotonic clocks (the others count from
 *                      when they read the renewal, which is after this replica's attempt began)
 */
public record LeaseSettings(String namespace, String name, String identity, Duration leaseDuration, Duration renewDeadline,
                            Duration retryPeriod, Duration safetyMargin) {

    /** The usual Kubernetes controller timings: 15 s lease, 10 s renew deadline, 2 s retry; writes stop 10 s after the last renewal. */
    public static LeaseSettings defaults(String namespace, String name, String identity) {
        return new LeaseSettings(namespace, name, identity, Duration.ofSeconds(15), Duration.ofSeconds(10), Duration.ofSeconds(2),
                Duration.ofSeconds(5));
    }

    public LeaseSettings {
        if (namespace == null || namespace.isBlank() || name == null || name.isBlank()) throw new IllegalArgumentException("a Lease needs a namespace and a name");
        if (identity == null || identity.isBlank()) throw new IllegalArgumentException("a replica needs an identity");
        if (renewDeadline.compareTo(leaseDuration) >= 0) throw new IllegalArgumentException("the renew deadline must be shorter than the lease duration");
        if (retryPeriod.compareTo(renewDeadline) >= 0) throw new IllegalArgumentException("the retry period must be shorter than the renew deadline");
        if (safetyMargin.isNegative() || safetyMargin.compareTo(leaseDuration.minus(retryPeriod)) >= 0) {
            throw new IllegalArgumentException("the safety margin must leave the holder more than one retry period to write in");
        }
    }

    /** How long after its last renewal began the holder may still write. */
    public Duration writableFor() { return leaseDuration.minus(safetyMargin); }

    public String describe() { return "Lease " + namespace + "/" + name; }
}
