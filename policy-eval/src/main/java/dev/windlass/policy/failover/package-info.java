/**
 * Failover: when an application leaves a cluster, where it goes, what it carries, and what it remembers.
 * Pure, like the rest of policy-eval: clocks come from the status branch and {@code now} is passed in.
 */
package dev.windlass.policy.failover;
