package dev.windlass.applier.reads;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.impl.BaseClient;
import io.fabric8.kubernetes.client.impl.KubernetesClientImpl;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.concurrent.Executor;

/**
 * The client a cluster's watches run on: the cluster's own HTTP client (its connections, limits and counters) and the
 * threads its client hands tasks to (where each watch event is read and stored), with a serialization that knows no
 * typed kinds but {@code Status}.
 *
 * <p>The client library reads each watch event's object into the typed model of its kind (a ConfigMap, a Deployment),
 * and a watch of generic resources then converts that model into a generic resource, through its serializer once more.
 * With no typed kinds known, the event is read into the generic resource at once: the same shape a LIST of the query
 * gives ({@link Listing#list}), for half the work. Every write of the engine brings one event back, so in a first sync
 * this was the largest part of the engine's Java work. {@code Status} stays known: an ERROR event carries one (410 Gone: the
 * watch's resource version is too old), and the watch must see it as such to start again from a LIST.
 *
 * <p>It owns nothing to close: the HTTP client and the task threads are the cluster client's, closed with it (the
 * engine's cluster clients share one set of task threads for the fleet: {@code cluster.ClusterClients}).
 */
final class WatchClient {

    /**
     * The watches' JSON mapping, shared by every cluster's watch client (one per cluster would learn the same types
     * once per cluster): objects as generic resources, and the server's Status, which the library reads for errors.
     */
    private static final KubernetesSerialization UNTYPED = untyped();

    private static KubernetesSerialization untyped() {
        KubernetesSerialization untyped = new KubernetesSerialization(new ObjectMapper(), false);
        untyped.registerKubernetesResource(Status.class);
        return untyped;
    }

    private final KubernetesClient cluster;
    private final KubernetesClient client;

    WatchClient(KubernetesClient cluster) {
        this.cluster = cluster;
        Executor tasks = cluster.adapt(BaseClient.class).getExecutor();
        this.client = new KubernetesClientImpl(cluster.getHttpClient(), cluster.getConfiguration(), () -> tasks, UNTYPED);
    }

    /**
     * The query's kind on this client. A built-in kind is described from the cluster client's registry of typed kinds
     * (its resource name and scope), which this client's serialization no longer has; a custom kind is found through
     * discovery, as the cluster client finds it.
     */
    FilterWatchListDeletable<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> operation(Query query) {
        Class<? extends KubernetesResource> typed = cluster.getKubernetesSerialization().getRegisteredKubernetesResource(query.apiVersion(), query.kind());
        return Listing.scoped(typed != null
                ? client.genericKubernetesResources(ResourceDefinitionContext.fromResourceType(typed))
                : client.genericKubernetesResources(query.apiVersion(), query.kind()), query);
    }

    /** The client the watches run on. */
    KubernetesClient client() { return client; }
}
