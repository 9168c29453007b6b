/**
 * The vocabulary shared by observing and writing: how one object is addressed on a cluster, the marks Windlass
 * leaves on what it applies, JSON-like trees as plain maps, and how a failed request is told transient from terminal.
 */
package dev.windlass.applier.kube;
