package dev.windlass.sandbox.sim;

import com.fasterxml.jackson.databind.JsonNode;
import dev.windlass.sandbox.LocalApi;
import dev.windlass.sandbox.SandboxCluster;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the simulator keeps for one cluster: its node pool and, per object generation, when it was first seen. Entries
 * of objects or generations no longer there are dropped every tick, so memory follows the live objects.
 */
final class SimulatedCluster {

    private static final Logger log = LoggerFactory.getLogger(SimulatedCluster.class);
    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    /** One generation of one object; the uid tells a re-created object from the old one. */
    private record Sighting(String kind, String uid, long generation) {}

    private final SandboxCluster cluster;
    private final NodePool nodes;
    private Map<Sighting, Instant> firstSeen = new HashMap<>();
    /** Since when the cluster has had no room for new Pods, or null: workloads first seen since then never get ready. */
    private volatile Instant noRoomSince;

    SimulatedCluster(SandboxCluster cluster, NodePool nodes) {
        this.cluster = cluster;
        this.nodes = nodes;
    }

    SandboxCluster cluster() {
        return cluster;
    }

    NodePool nodes() {
        return nodes;
    }

    /**
     * No room for new Pods (as when every node is cordoned): an object generation first seen from {@code since} on never
     * gets ready; what was rolled out before stays as it is. Null lifts it.
     */
    void noRoomSince(Instant since) {
        noRoomSince = since;
    }

    void tick(Instant now, Duration readyDelay, Collection<WorkloadMatch> neverReady) {
        LocalApi api = cluster.local();
        List<Node> all = nodes.reconcile(api, now);
        int ready = (int) all.stream().filter(NodePool::isReady).count();
        Map<Sighting, Instant> seen = new HashMap<>();
        for (Controller<?> controller : Controller.ALL) {
            reconcile(api, controller, now, readyDelay, neverReady, all.size(), ready, seen);
        }
        firstSeen = seen;
    }

    private <T extends HasMetadata> void reconcile(LocalApi api, Controller<T> controller, Instant now,
            Duration readyDelay, Collection<WorkloadMatch> neverReady, int nodeCount, int readyNodes,
            Map<Sighting, Instant> seen) {
        for (T object : api.list(controller.type())) {
            // The CRUD store sets metadata.generation to 1 on create and bumps it whenever a change reaches beyond
            // metadata and status, as the API server does for kinds with a status subresource.
            Long generation = object.getMetadata().getGeneration();
            Sighting sighting = new Sighting(controller.type().getSimpleName(), object.getMetadata().getUid(),
                    generation == null ? 0 : generation);
            Instant since = firstSeen.getOrDefault(sighting, now);
            seen.put(sighting, since);
            Instant due = since.plus(readyDelay);
            Instant full = noRoomSince;
            boolean stuck = neverReady.stream().anyMatch(m -> m.matches(cluster.name(), object))
                    || full != null && !since.isBefore(full) && !controller.type().getSimpleName().equals("PersistentVolumeClaim");
            Progress.Stage stage = now.isBefore(due) ? Progress.Stage.ROLLING_OUT
                    : stuck ? Progress.Stage.STUCK : Progress.Stage.READY;
            Progress progress = new Progress(sighting.generation(), since, due, stage, nodeCount, readyNodes);
            JsonNode before = status(object);
            if (controller.apply(object, progress) && !before.equals(status(object))) {
                api.replaceStatus(object);
                log.debug("{}: {} {}/{} is {}", cluster.name(), sighting.kind(), object.getMetadata().getNamespace(),
                        object.getMetadata().getName(), stage);
            }
        }
    }

    private static JsonNode status(HasMetadata object) {
        return JSON.convertValue(object, JsonNode.class).path("status");
    }
}
