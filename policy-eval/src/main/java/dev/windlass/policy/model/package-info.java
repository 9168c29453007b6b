/** The repository model users write (clusters, applications, settings) and the plain Kubernetes manifests they hold, as immutable records. */
package dev.windlass.policy.model;
