package dev.windlass.policy.remediation;

import dev.windlass.policy.model.RemediationPolicy;

/**
 * {@code triggerIf} of a RemediationPolicy: whether remediation may act on a cluster, given how many of its
 * targets there are and how many are unhealthy. The caller counts a target that is expected but missing as
 * unhealthy; {@code unhealthy} is taken as given. Percentages round down: 40% of 5 is 2, 40% of 3 and 50% of
 * 3 are 1. A range {@code [min-max]} includes both ends.
 */
public final class Gate {
    private Gate() {}

    /** @param total the targets on the cluster (unhealthy ones and missing ones included) */
    public static Verdict allows(RemediationPolicy.Gate gate, int total, int unhealthy) {
        if (total < 0 || unhealthy < 0) throw new IllegalArgumentException("counts cannot be negative: " + total + " targets, " + unhealthy + " unhealthy");
        String counted = unhealthy + " of " + total + " targets unhealthy";
        if (gate == null || gate instanceof RemediationPolicy.Always) {
            return Verdict.allow(counted + "; triggerIf is not set, so any number may be remediated");
        }
        if (gate instanceof RemediationPolicy.AtMost a) {
            int max = a.max().of(total);
            String limit = "triggerIf allows at most " + (a.max().percent() ? a.max() + " of " + total + " = " + max : Integer.toString(max));
            return unhealthy <= max ? Verdict.allow(counted + "; " + limit) : Verdict.block(counted + "; " + limit);
        }
        RemediationPolicy.InRange r = (RemediationPolicy.InRange) gate;
        String limit = "triggerIf allows " + r;
        return unhealthy >= r.min() && unhealthy <= r.max() ? Verdict.allow(counted + "; " + limit) : Verdict.block(counted + "; " + limit);
    }
}
