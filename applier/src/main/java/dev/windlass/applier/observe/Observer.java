package dev.windlass.applier.observe;

import dev.windlass.policy.observe.ServerInfo;

import dev.windlass.applier.cluster.ClusterClients;
import dev.windlass.applier.cluster.ClusterConnection;
import dev.windlass.applier.inventory.InventoryConfigMaps;
import dev.windlass.applier.inventory.InventoryParses;
import dev.windlass.applier.kube.Failures;
import dev.windlass.applier.kube.JsonTree;
import dev.windlass.applier.kube.OwnershipMarks;
import dev.windlass.applier.reads.ClusterReads;
import dev.windlass.applier.reads.Query;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.observe.ClusterObservation;
import dev.windlass.policy.state.Reachability;
import dev.windlass.policy.observe.DesiredObjects;
import dev.windlass.policy.observe.KindRef;
import dev.windlass.policy.observe.LiveObject;
import dev.windlass.policy.observe.NodeObservation;
import dev.windlass.policy.observe.ObservedTarget;
import dev.windlass.policy.state.InventoryEntry;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.RequestConfig;
import io.fabric8.kubernetes.client.RequestConfigBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.utils.URLUtils;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Observes one cluster: namespaces and nodes, one {@code GET /readyz} (whether the API server itself says it can
 * serve), the objects of each kind Windlass manages (across all namespaces, by the label Windlass puts on what it
 * applies), and the cluster's inventory records. Everything but /readyz is read through the connection's
 * {@link ClusterReads}: from watches when the engine keeps them, so a pass with nothing new makes that one request;
 * otherwise one LIST each. /readyz is asked every time, so a cluster that stopped answering is unreachable at once.
 */
public final class Observer {

    private static final String READYZ = "readyz";
    /** How long what an API server said of itself is taken as still true. */
    static final java.time.Duration SERVER_INFO_EVERY = java.time.Duration.ofMinutes(5);
    /** What each client's API server said of itself, and when; a client that is closed and dropped takes its entry with it. */
    private final Map<KubernetesClient, KnownServer> servers = java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());
    private static final int MAX_SAID = 300;
    static final Query NAMESPACES = Query.of("v1", "Namespace");
    static final Query NODES = Query.of("v1", "Node");

    private final ClusterClients clients;
    /** Per cluster, the inventory records as last parsed. */
    private final Map<String, InventoryParses> inventoryParses = new java.util.concurrent.ConcurrentHashMap<>();
    /** Per cluster, what its API server answered about objects Windlass's own comparison found different. */
    private final Map<String, ServerDiffs> serverDiffs = new java.util.concurrent.ConcurrentHashMap<>();

    public Observer(ClusterClients clients) { this.clients = clients; }

    /**
     * Never throws for cluster trouble. No answer, or a server error on any LIST, makes the cluster unreachable;
     * a kind the cluster does not serve or refuses to list is named in the message and the rest is observed.
     */
    public ClusterObservation observe(String cluster, Set<KindRef> kinds) {
        return observe(cluster, kinds, Set.of());
    }

    /**
     * Also lists every object of {@code targetKinds} (the kinds remediation policies watch), managed by Windlass or
     * not. Nodes come from the nodes read anyway; any other kind is one more query.
     */
    public ClusterObservation observe(String cluster, Set<KindRef> kinds, Set<KindRef> targetKinds) {
        return observe(cluster, kinds, targetKinds, DesiredObjects.NONE);
    }

    /**
     * Also asks the API server, on clusters with server-side apply, about each managed object that Windlass's own
     * comparison finds different from what {@code desired} says ({@link ServerDiffs}).
     */
    public ClusterObservation observe(String cluster, Set<KindRef> kinds, Set<KindRef> targetKinds, DesiredObjects desired) {
        ClusterConnection connection = clients.connection(cluster);
        if (connection instanceof ClusterConnection.Broken broken) {
            return ClusterObservation.unreachable(cluster, broken.message());
        }
        ClusterConnection.Connected connected = (ClusterConnection.Connected) connection;
        KubernetesClient client = connected.client();
        ClusterReads reads = connected.reads();
        try {
            Set<String> namespaces = new TreeSet<>();
            reads.read(NAMESPACES).forEach(n -> namespaces.add(BodyFields.string(n, "metadata", "name")));
            List<Map<String, Object>> nodeBodies = reads.read(NODES);
            List<NodeObservation> nodes = nodeBodies.stream().map(Observer::node).toList();
            String notReady = notReady(client);
            Map<ObjectRef, LiveObject> objects = new LinkedHashMap<>();
            List<String> problems = new ArrayList<>();
            for (KindRef kind : new TreeSet<>(kinds)) {
                try {
                    for (Map<String, Object> body : reads.read(managed(kind))) {
                        LiveObject live = liveObject(kind, body);
                        objects.put(live.ref(), live);
                    }
                } catch (KubernetesClientException e) {
                    Failures.Kind failure = Failures.classify(e);
                    if (failure == Failures.Kind.Unreachable || failure == Failures.Kind.ServerError) throw e;
                    problems.add("cannot list " + kind.kind() + " (" + kind.apiVersion() + "): " + Failures.describe(e));
                }
            }
            if (connected.serverSideApply()) {
                objects = serverDiffs.computeIfAbsent(cluster, c -> new ServerDiffs()).confirm(cluster, client, objects, desired);
            }
            InventoryParses parses = inventoryParses.computeIfAbsent(cluster, c -> new InventoryParses());
            Map<String, List<InventoryEntry>> inventories = inventories(reads, parses, problems);
            Map<KindRef, List<ObservedTarget>> targets = new LinkedHashMap<>();
            for (KindRef kind : new TreeSet<>(targetKinds)) {
                try {
                    List<Map<String, Object>> bodies = kind.apiVersion().equals("v1") && kind.kind().equals("Node") ? nodeBodies
                            : reads.read(Query.of(kind.apiVersion(), kind.kind()));
                    targets.put(kind, bodies.stream().map(b -> TargetReader.read(kind, b)).toList());
                } catch (KubernetesClientException e) {
                    Failures.Kind failure = Failures.classify(e);
                    if (failure == Failures.Kind.Unreachable || failure == Failures.Kind.ServerError) throw e;
                    problems.add("cannot list remediation targets " + kind.kind() + " (" + kind.apiVersion() + "): " + Failures.describe(e));
                }
            }
            return new ClusterObservation(cluster, Reachability.Reachable, String.join("; ", problems), objects,
                    namespaces, nodes, connected.serverSideApply(), inventories, notReady, targets, serverInfo(client));
        } catch (KubernetesClientException e) {
            return ClusterObservation.unreachable(cluster, Failures.describe(e) + " (" + client.getMasterUrl() + ")");
        }
    }

    /**
     * What the API server says it is ({@code GET /version}) and serves (discovery: {@code GET /api}, {@code /apis}),
     * asked again at most every {@link #SERVER_INFO_EVERY}: a version changes with an upgrade, API versions with an
     * installed CustomResourceDefinition. Unknown when it does not say (an answer without them is not a cluster problem).
     */
    private ServerInfo serverInfo(KubernetesClient client) {
        KnownServer known = servers.get(client);
        long now = System.nanoTime();
        if (known != null && now - known.askedAt() < SERVER_INFO_EVERY.toNanos()) return known.info();
        ServerInfo info;
        try {
            var version = client.getKubernetesVersion();
            List<String> apiVersions = new ArrayList<>(List.of("v1"));
            var groups = client.getApiGroups();
            if (groups != null && groups.getGroups() != null) {
                groups.getGroups().forEach(g -> g.getVersions().forEach(v -> apiVersions.add(v.getGroupVersion())));
            }
            info = new ServerInfo(version == null ? "" : version.getGitVersion(), apiVersions);
        } catch (KubernetesClientException e) {
            if (Failures.classify(e) == Failures.Kind.Unreachable) throw e;
            info = known != null ? known.info() : ServerInfo.UNKNOWN;
        }
        servers.put(client, new KnownServer(info, now));
        return info;
    }

    private record KnownServer(ServerInfo info, long askedAt) {}

    /** Whether the cluster answers at all: one {@code GET /readyz}; any answer, ready or not, counts. */
    public boolean answers(String cluster) {
        if (!(clients.connection(cluster) instanceof ClusterConnection.Connected connected)) return false;
        try {
            notReady(connected.client());
            return true;
        } catch (KubernetesClientException e) {
            return false;
        }
    }

    /** Whether the cluster says it is ready: one {@code GET /readyz}, answered 200 (or by a server that has none). */
    public boolean ready(String cluster) {
        if (!(clients.connection(cluster) instanceof ClusterConnection.Connected connected)) return false;
        try {
            return notReady(connected.client()).isEmpty();
        } catch (KubernetesClientException e) {
            return false;
        }
    }

    /** Dry runs sent to ask {@code cluster}'s API server about drift so far. */
    public long driftDryRuns(String cluster) {
        ServerDiffs diffs = serverDiffs.get(cluster);
        return diffs == null ? 0 : diffs.dryRuns();
    }

    /** What is read of a kind Windlass manages: its objects that carry the managed-by label. */
    static Query managed(KindRef kind) {
        return Query.of(kind.apiVersion(), kind.kind()).withLabel(OwnershipMarks.MANAGED_BY, OwnershipMarks.MANAGED_BY_VALUE);
    }

    /**
     * Asks the API server's {@code /readyz}: "" when it answers 200, else its status code and the failed checks it
     * lists (or the first line it said). One request, never retried: the LISTs just before proved the connection,
     * and a server that says it is not ready says so again a moment later. Goes through the client's own HTTP
     * client, so the request carries the cluster's credentials, TLS settings and deadline. The client's
     * {@code raw()} is not used: on an error it keeps only a JSON Status, and /readyz answers in plain text.
     *
     * @throws KubernetesClientException when no answer came (the cluster is then unreachable like on any other probe)
     */
    static String notReady(KubernetesClient client) {
        RequestConfig once = new RequestConfigBuilder(client.getConfiguration().getRequestConfig())
                .withRequestRetryBackoffLimit(0).build();
        HttpClient http = client.newClient(once).getHttpClient();
        HttpRequest.Builder request = http.newHttpRequestBuilder().uri(URLUtils.join(client.getMasterUrl().toString(), READYZ));
        Integer timeout = once.getRequestTimeout();
        if (timeout != null && timeout > 0) request.timeout(timeout, TimeUnit.MILLISECONDS);
        HttpResponse<String> response;
        try {
            response = http.sendAsync(request.build(), String.class).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KubernetesClientException("GET /" + READYZ + " interrupted", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new KubernetesClientException("GET /" + READYZ + " failed: " + cause.getMessage(), cause);
        }
        // Only an answer that says "not ready" counts: API servers before 1.16 have no /readyz (404), and
        // credentials locked down to less than the default may not read it (401, 403). Those say nothing.
        if (response.code() == 200 || response.code() == 401 || response.code() == 403 || response.code() == 404) return "";
        String said = whatFailed(response.body());
        return "/" + READYZ + " answered " + response.code() + (said.isEmpty() ? "" : ": " + said);
    }

    /** The failed checks an API server lists ({@code [-]etcd failed: ...}), or else the first line of the body. */
    static String whatFailed(String body) {
        if (body == null) return "";
        List<String> lines = body.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        List<String> failed = lines.stream().filter(l -> l.startsWith("[-]")).toList();
        String said = !failed.isEmpty() ? String.join(", ", failed) : lines.isEmpty() ? "" : lines.get(0);
        return said.length() <= MAX_SAID ? said : said.substring(0, MAX_SAID) + "...";
    }

    /** Every application's inventory from one query; one that cannot be read is named in the problems. */
    private static Map<String, List<InventoryEntry>> inventories(ClusterReads reads, InventoryParses parses, List<String> problems) {
        try {
            InventoryConfigMaps.Found found = InventoryConfigMaps.readAll(reads.read(InventoryConfigMaps.QUERY), parses);
            problems.addAll(found.problems());
            return found.inventories();
        } catch (KubernetesClientException e) {
            Failures.Kind failure = Failures.classify(e);
            if (failure == Failures.Kind.Unreachable || failure == Failures.Kind.ServerError) throw e;
            problems.add("cannot read inventories in " + InventoryConfigMaps.NAMESPACE + ": " + Failures.describe(e));
            return Map.of();
        }
    }

    /** {@code body} is a frozen tree as reads return it, so it is kept as it is. */
    private static LiveObject liveObject(KindRef kind, Map<String, Object> body) {
        String ns = BodyFields.string(body, "metadata", "namespace");
        var ref = new ObjectRef(ObjectRef.groupOf(kind.apiVersion()), kind.kind(), ns.isEmpty() ? null : ns,
                BodyFields.string(body, "metadata", "name"));
        Assessment health = HealthAssessor.assess(body);
        return new LiveObject(ref, body, health.health(), health.message());
    }

    private static NodeObservation node(Map<String, Object> body) {
        Map<String, Object> meta = JsonTree.childMap(body, "metadata");
        Map<String, Object> status = JsonTree.childMap(body, "status");
        boolean ready = status != null && status.get("conditions") instanceof List<?> conditions && conditions.stream()
                .anyMatch(c -> c instanceof Map<?, ?> m && "Ready".equals(m.get("type")) && "True".equals(m.get("status")));
        Map<String, String> labels = new TreeMap<>();
        if (meta != null && meta.get("labels") instanceof Map<?, ?> m) m.forEach((k, v) -> labels.put(String.valueOf(k), String.valueOf(v)));
        return new NodeObservation(BodyFields.string(body, "metadata", "name"), Map.copyOf(labels), ready);
    }
}
