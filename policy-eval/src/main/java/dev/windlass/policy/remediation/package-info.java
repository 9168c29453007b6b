/**
 * Remediation of unhealthy targets: the pure arithmetic of when a {@code RemediationPolicy} may act
 * ({@link dev.windlass.policy.remediation.Gate}, {@link dev.windlass.policy.remediation.Quorum}).
 * No clock and no I/O: the caller counts targets and passes the numbers in.
 */
package dev.windlass.policy.remediation;
