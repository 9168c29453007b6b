/**
 * Plays kubelet and the built-in controllers for sandbox clusters: keeps Node objects, reports workloads ready after a
 * delay on an injectable clock, and takes faults (a node going NotReady, a workload that never becomes ready).
 */
package dev.windlass.sandbox.sim;
