/**
 * Simulated Kubernetes clusters that run inside the JVM, for the demo and for tests: one in-process API server per
 * cluster behind a front door that can go dark, with request counting and injected latency. Each is fabric8's mock
 * server in CRUD mode, with what it lacks added in front of it; the {@code sim} package plays kubelet and the
 * workload controllers.
 *
 * <h2>Refused as a real API server refuses</h2>
 * Checked by {@code ObjectValidation} on creates (POST), updates (PUT) and JSON merge patches, with the Status a real
 * v1.34 server sends (code, reason, message, causes); {@code RefusalContractIT} sends the same writes to a real
 * kube-apiserver and compares the answers:
 * <ul>
 *   <li>{@code metadata.name} in the format of its kind: a DNS-1123 subdomain for most kinds and custom resources,
 *       a DNS-1123 label for Namespace and StatefulSet, a DNS-1035 label for Service, a path segment for the RBAC
 *       kinds; a missing name; {@code generateName} likewise; CronJob names over 52 characters (422 Invalid);</li>
 *   <li>label keys and values, annotation keys, and annotations over 256 KiB together (422 Invalid);</li>
 *   <li>a namespace in the body other than the one in the path, and on updates a name in the body other than the
 *       one in the path, or none (400 BadRequest);</li>
 *   <li>a create in a namespace whose name is not a DNS-1123 label (404 {@code namespaces "UPPER" not found});</li>
 *   <li>an update of an object that does not exist, before its metadata is looked at (404, naming the object as a
 *       real server does: {@code deployments.apps "web" not found}).</li>
 * </ul>
 *
 * <h2>Known gaps: taken here, refused or done otherwise by a real server</h2>
 * <ul>
 *   <li>Nothing outside {@code metadata} is validated: no OpenAPI or CustomResourceDefinition schema, no required
 *       fields, no immutable fields, no object size limit (a 1.1 MB ConfigMap is stored); owner references and
 *       finalizers are not checked either.</li>
 *   <li>JSON patches (RFC 6902, what fabric8's {@code edit} sends) and writes to subresources (status, scale, ...)
 *       are not checked. Server-side apply and strategic merge patch are not supported (404 or 415), and a dry run
 *       is stored like any write.</li>
 *   <li>No admission: a create in a well-formed namespace that does not exist is taken (a real server answers 404);
 *       no ServiceAccount, LimitRanger, ResourceQuota, Pod Security or webhooks; no authentication or RBAC.</li>
 *   <li>A refused {@code generateName} has one cause; a real server also names the name it generated from it.
 *       On updates of some kinds (ConfigMap, Secret) a real server lists each cause twice; the sandbox once. Names
 *       of ClusterTrustBundle, IPAddress and CertificateSigningRequest are checked only as path segments.</li>
 *   <li>No garbage collector (owned objects stay when their owner goes, and a deleted Namespace's objects stay), no
 *       TTL controller (finished Jobs with {@code ttlSecondsAfterFinished} are never deleted), no scheduler (pods are
 *       not bound to nodes), and no {@code managedFields}. A plain update of a built-in kind overwrites its status.</li>
 *   <li>It says it is v1.33 ({@code /version}), while what it refuses follows v1.34.</li>
 * </ul>
 */
package dev.windlass.sandbox;
