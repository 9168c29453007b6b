package dev.windlass.applier.reads;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Answers the queries an observation makes of one cluster. */
public interface ClusterReads extends AutoCloseable {

    /**
     * The objects {@code query} names, as frozen JSON trees with only other managers' non-status managedFields, in key order
     * (namespace, then name): what a LIST made now would return.
     *
     * @throws KubernetesClientException when the cluster had to be asked and did not answer, or refused
     */
    List<Map<String, Object>> read(Query query);

    /**
     * Waits until every answer kept from earlier reads matches what the cluster holds now (for callers that changed
     * the cluster behind the engine's back and want the next read to show it). True when all matched in time, or the
     * cluster did not answer (a read then asks it anyway).
     */
    default boolean awaitCurrent(Duration timeout) { return true; }

    /**
     * What every read would answer now, as a stamp that changes whenever an answer could; null when some read would
     * ask the cluster (nothing is watched, a watch is down, or it was not proven current since the last write). Asks
     * the cluster nothing.
     */
    default ReadsStamp stamp() { return null; }

    /**
     * Proves again the kept answers whose proof ran out while nothing of their kind was written, each by one LIST of
     * its objects' metadata, so that a quiet cluster's {@link #stamp} stays what it was instead of turning null every
     * few minutes. An answer that does not match stays unproven, and its next read asks the cluster.
     *
     * @throws KubernetesClientException never: a cluster that does not answer leaves the proofs as they were
     */
    default void renewProofs() {}

    /** Stops whatever the reads keep open. */
    @Override default void close() {}
}
