package dev.windlass.policy.observe;

import dev.windlass.policy.state.Reachability;

import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.state.InventoryEntry;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One cluster as observed at the start of a pass.
 *
 * @param objects         the objects Windlass manages there (found by its labels), by identity
 * @param namespaces      names of every namespace on the cluster
 * @param serverSideApply whether the API server supports server-side apply (and server-side dry-run); sandbox clusters do not
 * @param inventories     per application, what the cluster's own inventory record (ConfigMap
 *                        {@code windlass-system/windlass-inventory-<app>}) says was applied there
 * @param notReady        "" when the API server's {@code /readyz} answered ok, else what it said
 * @param targets         objects of the kinds remediation policies watch, all of them, managed by Windlass or not
 * @param server          what the API server says it is and serves ({@code /version}, discovery); {@link ServerInfo#UNKNOWN}
 *                        when it was not asked
 */
public record ClusterObservation(String cluster, Reachability reachability, String message,
                                 Map<ObjectRef, LiveObject> objects, Set<String> namespaces,
                                 List<NodeObservation> nodes, boolean serverSideApply,
                                 Map<String, List<InventoryEntry>> inventories, String notReady,
                                 Map<KindRef, List<ObservedTarget>> targets, ServerInfo server) {

    public ClusterObservation(String cluster, Reachability reachability, String message, Map<ObjectRef, LiveObject> objects,
                              Set<String> namespaces, List<NodeObservation> nodes, boolean serverSideApply,
                              Map<String, List<InventoryEntry>> inventories, String notReady,
                              Map<KindRef, List<ObservedTarget>> targets) {
        this(cluster, reachability, message, objects, namespaces, nodes, serverSideApply, inventories, notReady, targets, ServerInfo.UNKNOWN);
    }

    public ClusterObservation(String cluster, Reachability reachability, String message, Map<ObjectRef, LiveObject> objects,
                              Set<String> namespaces, List<NodeObservation> nodes, boolean serverSideApply,
                              Map<String, List<InventoryEntry>> inventories, String notReady) {
        this(cluster, reachability, message, objects, namespaces, nodes, serverSideApply, inventories, notReady, Map.of());
    }

    public ClusterObservation(String cluster, Reachability reachability, String message, Map<ObjectRef, LiveObject> objects,
                              Set<String> namespaces, List<NodeObservation> nodes, boolean serverSideApply,
                              Map<String, List<InventoryEntry>> inventories) {
        this(cluster, reachability, message, objects, namespaces, nodes, serverSideApply, inventories, "");
    }

    public ClusterObservation {
        objects = Map.copyOf(objects);
        namespaces = Set.copyOf(namespaces);
        nodes = List.copyOf(nodes);
        inventories = inventories == null ? Map.of() : Map.copyOf(inventories);
        notReady = notReady == null ? "" : notReady;
        targets = targets == null ? Map.of() : Map.copyOf(targets);
        server = server == null ? ServerInfo.UNKNOWN : server;
    }

    public static ClusterObservation unreachable(String cluster, String message) {
        return new ClusterObservation(cluster, Reachability.Unreachable, message, Map.of(), Set.of(), List.of(), false, Map.of());
    }

    public boolean reachable() { return reachability == Reachability.Reachable; }
}
