/**
 * Simulated Kubernetes clusters that run inside the JVM, for the demo and for tests: one in-process API server per
 * cluster behind a front door that can go dark, with request counting and injected latency.
 */
package dev.windlass.sandbox;
