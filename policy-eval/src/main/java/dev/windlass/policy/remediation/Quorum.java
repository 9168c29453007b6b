package dev.windlass.policy.remediation;

/**
 * {@code quorum: true} of a RemediationPolicy, for targets that form a consensus group (such as the members
 * of a control plane's datastore). The rule:
 * <ul>
 *   <li>a group of {@code members} needs {@code quorum = members / 2 + 1} healthy members (integer division:
 *       1 of 1, 2 of 3, 3 of 5, 4 of 7);</li>
 *   <li>the member to remediate is itself unhealthy, so taking it out does not lower the healthy count:
 *       healthy after = {@code healthy}, and remediation is allowed only when {@code healthy >= quorum};</li>
 *   <li>when {@code healthy < quorum} the group has already lost quorum, and no remediation can act safely: blocked;</li>
 *   <li>one remediation in flight at a time: {@code inFlight >= 1} blocks.</li>
 * </ul>
 * So 1 of 3 unhealthy is allowed (2 healthy, quorum 2) and 2 of 3 is blocked; a single member that is
 * unhealthy is blocked (0 healthy, quorum 1). The caller counts a member under remediation as in flight and
 * not healthy, and a member that is expected but missing as not healthy.
 */
public final class Quorum {
    private Quorum() {}

    public static Verdict allows(int members, int healthy, int inFlight) {
        if (members < 1 || healthy < 0 || healthy > members || inFlight < 0) {
            throw new IllegalArgumentException("not a consensus group: " + members + " members, " + healthy + " healthy, " + inFlight + " in flight");
        }
        int quorum = members / 2 + 1;
        String group = members + (members == 1 ? " member, " : " members, ") + healthy + " healthy";
        if (healthy == members) return Verdict.block(group + ": no member is unhealthy, nothing to remediate");
        if (healthy < quorum) {
            return Verdict.block(group + ": remediating one would leave " + healthy + " healthy, quorum needs " + quorum
                    + "; the group has already lost quorum");
        }
        if (inFlight >= 1) {
            return Verdict.block(group + ": " + (inFlight == 1 ? "one remediation" : inFlight + " remediations") + " in flight; "
                    + "quorum allows one at a time, the next waits until it is done");
        }
        return Verdict.allow(group + ": remediating one leaves " + healthy + " healthy, quorum needs " + quorum);
    }
}
