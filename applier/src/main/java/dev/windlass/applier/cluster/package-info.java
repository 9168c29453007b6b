/**
 * One Kubernetes client per member cluster, built from a kubeconfig on the engine host or registered
 * directly (sandbox clusters), with short timeouts so that a dead cluster fails fast instead of stalling a pass.
 */
package dev.windlass.applier.cluster;
