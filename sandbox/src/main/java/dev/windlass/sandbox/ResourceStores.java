package dev.windlass.sandbox;

import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * A cluster's store: one CRUD store per built-in resource (ConfigMaps, Deployments, Pods, ...) and one shared by
 * everything else.
 *
 * <p>The embedded CRUD store finds an object by comparing the request with every object it holds, so each request
 * costs time in proportion to the whole store. Keeping each built-in resource apart makes that the objects of one
 * resource: at 1,000 apps on a cluster, 1,000 to 2,000 (ConfigMaps: the apps' own and their inventory records)
 * instead of about 8,000. Custom resources share a store with their
 * definitions, which is where the store looks up their scope and status subresource.
 *
 * <p>Each store counts its own resource versions, so two objects of different resources may carry the same one.
 * A resource version is only ever compared within one resource (a watch, an update's precondition), as on a real
 * API server, where it is opaque.
 */
final class ResourceStores extends Dispatcher {

    /** API groups whose resources the store needs no definition for; each of their resources gets a store of its own. */
    private static final Set<String> BUILT_IN_GROUPS = Set.of("", "apps", "batch", "autoscaling", "policy",
            "networking.k8s.io", "rbac.authorization.k8s.io", "coordination.k8s.io", "discovery.k8s.io",
            "storage.k8s.io", "scheduling.k8s.io", "node.k8s.io", "events.k8s.io", "certificates.k8s.io",
            "admissionregistration.k8s.io");

    private static final String SHARED = "";

    private final ConcurrentMap<String, KubernetesCrudDispatcher> stores = new ConcurrentHashMap<>();

    @Override public MockResponse dispatch(RecordedRequest request) {
        return stores.computeIfAbsent(storeFor(request.getPath()), k -> new IndexedCrudStore()).dispatch(request);
    }

    /**
     * Which store answers a path: {@code group/resource} for a built-in resource, else the shared store ("").
     * {@code /api/v1/namespaces/demo/configmaps/settings} is {@code /configmaps}; {@code /api/v1/namespaces/demo}
     * is {@code /namespaces}; {@code /apis/example.com/v1/widgets} is the shared store.
     */
    static String storeFor(String path) {
        int query = path.indexOf('?');
        List<String> parts = List.of((query < 0 ? path : path.substring(0, query)).split("/"));
        int at;
        String group;
        if (parts.size() > 2 && parts.get(1).equals("api")) {
            group = "";
            at = 3;
        } else if (parts.size() > 3 && parts.get(1).equals("apis")) {
            group = parts.get(2);
            at = 4;
        } else {
            return SHARED;
        }
        if (!BUILT_IN_GROUPS.contains(group)) return SHARED;
        List<String> rest = parts.subList(Math.min(at, parts.size()), parts.size());
        if (!rest.isEmpty() && rest.get(0).equals("watch")) rest = rest.subList(1, rest.size());
        if (rest.isEmpty()) return SHARED;
        boolean namespacedResource = rest.get(0).equals("namespaces") && rest.size() >= 3
                && !(rest.size() == 3 && (rest.get(2).equals("status") || rest.get(2).equals("finalize")));
        return group + "/" + (namespacedResource ? rest.get(2) : rest.get(0));
    }

    @Override public void shutdown() {
        stores.values().forEach(Dispatcher::shutdown);
    }

    @Override public void releaseResources() {
        stores.values().forEach(Dispatcher::releaseResources);
    }
}
