/**
 * A real kube-apiserver backed by etcd, on loopback only, for integration tests: started from binaries that
 * scripts/kube-test-env.sh builds, with a static admin token, and counted from the server's own metrics.
 */
package dev.windlass.kubetest;
