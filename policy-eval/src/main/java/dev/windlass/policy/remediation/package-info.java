/**
 * Remediation of unhealthy targets, decided each pass from the recorded state, the observed targets and the engine's
 * clock (no I/O): {@link dev.windlass.policy.remediation.Remediations} for every cluster, one
 * {@link dev.windlass.policy.remediation.PolicyPass} per policy and cluster, a target's state from its conditions
 * ({@link dev.windlass.policy.remediation.Assessment}), what may act at all ({@link dev.windlass.policy.remediation.Gate},
 * {@link dev.windlass.policy.remediation.Quorum}, pure arithmetic on counts) and the actions it takes
 * ({@link dev.windlass.policy.remediation.TargetActions}).
 */
package dev.windlass.policy.remediation;
