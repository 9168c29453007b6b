package dev.windlass.sandbox.sim;

import dev.windlass.sandbox.LocalApi;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.NodeStatus;
import io.fabric8.kubernetes.api.model.Quantity;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The nodes of one cluster, played as their kubelets would: {@code <cluster>-cp-<i>} control-plane nodes and
 * {@code <cluster>-worker-<i>} workers (counted from 1), each with a Ready condition. A deleted node comes back, and
 * a Ready condition that differs from what is wanted is flipped, with a new lastTransitionTime. Heartbeats are only
 * written with a transition: a heartbeat every tick would be a write per node per tick for nothing.
 */
final class NodePool {

    static final String CONTROL_PLANE = "node-role.kubernetes.io/control-plane";

    private final Map<String, Boolean> controlPlane = new LinkedHashMap<>(); // name -> is control plane
    private final Map<String, Boolean> wantReady = new ConcurrentHashMap<>();

    NodePool(String cluster, int nodes, int controlPlaneNodes) {
        for (int i = 1; i <= nodes; i++) {
            boolean cp = i <= controlPlaneNodes;
            controlPlane.put(cluster + (cp ? "-cp-" + i : "-worker-" + (i - controlPlaneNodes)), cp);
        }
    }

    boolean has(String node) {
        return controlPlane.containsKey(node);
    }

    void wantReady(String node, boolean ready) {
        wantReady.put(node, ready);
    }

    void allReady() {
        wantReady.clear();
    }

    /** Brings the Node objects in line and returns every Node of the cluster as it now stands. */
    List<Node> reconcile(LocalApi api, Instant now) {
        Map<String, Node> existing = new LinkedHashMap<>();
        for (Node node : api.list(Node.class)) {
            existing.put(node.getMetadata().getName(), node);
        }
        List<Node> result = new ArrayList<>();
        for (Node node : existing.values()) {
            String name = node.getMetadata().getName();
            String wanted = wantReady.getOrDefault(name, true) ? "True" : "False";
            if (has(name) && !wanted.equals(readyStatus(node))) {
                node = api.replaceStatus(withReady(node, readyCondition(wanted, now))).orElse(node);
            }
            result.add(node);
        }
        for (Map.Entry<String, Boolean> seat : controlPlane.entrySet()) {
            if (!existing.containsKey(seat.getKey())) {
                boolean ready = wantReady.getOrDefault(seat.getKey(), true);
                result.add(api.create(newNode(seat.getKey(), seat.getValue(), result.size() + 1, ready, now)));
            }
        }
        return result;
    }

    private static Node withReady(Node node, NodeCondition ready) {
        if (node.getStatus() == null) {
            node.setStatus(new NodeStatus());
        }
        List<NodeCondition> conditions = new ArrayList<>(node.getStatus().getConditions());
        conditions.removeIf(c -> "Ready".equals(c.getType()));
        conditions.add(ready);
        node.getStatus().setConditions(conditions);
        return node;
    }

    static boolean isReady(Node node) {
        return "True".equals(readyStatus(node));
    }

    private static String readyStatus(Node node) {
        if (node.getStatus() == null || node.getStatus().getConditions() == null) {
            return null;
        }
        return node.getStatus().getConditions().stream().filter(c -> "Ready".equals(c.getType()))
                .map(NodeCondition::getStatus).findFirst().orElse(null);
    }

    private static Node newNode(String name, boolean cp, int index, boolean ready, Instant now) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("kubernetes.io/hostname", name);
        labels.put("kubernetes.io/os", "linux");
        labels.put("kubernetes.io/arch", "amd64");
        if (cp) {
            labels.put(CONTROL_PLANE, "");
        }
        Map<String, Quantity> capacity = Map.of("cpu", new Quantity("4"), "memory", new Quantity("16Gi"),
                "pods", new Quantity("110"));
        NodeBuilder node = new NodeBuilder().withNewMetadata().withName(name).withLabels(labels).endMetadata();
        if (cp) {
            node.withNewSpec().addNewTaint().withKey(CONTROL_PLANE).withEffect("NoSchedule").endTaint().endSpec();
        }
        return node.withNewStatus()
                .withConditions(readyCondition(ready ? "True" : "False", now))
                .addNewAddress().withType("InternalIP").withAddress("10.0.0." + index).endAddress()
                .addNewAddress().withType("Hostname").withAddress(name).endAddress()
                .withCapacity(capacity).withAllocatable(capacity)
                .withNewNodeInfo().withKubeletVersion("v1.33.0").withKubeProxyVersion("v1.33.0")
                .withOperatingSystem("linux").withArchitecture("amd64").withOsImage("Windlass sandbox")
                .withContainerRuntimeVersion("containerd://2.0.0").withKernelVersion("6.1.0").endNodeInfo()
                .endStatus().build();
    }

    private static NodeCondition readyCondition(String status, Instant now) {
        boolean ready = "True".equals(status);
        String at = Progress.time(now);
        return new NodeConditionBuilder().withType("Ready").withStatus(status)
                .withReason(ready ? "KubeletReady" : "KubeletNotReady")
                .withMessage(ready ? "kubelet is posting ready status" : "container runtime is down")
                .withLastHeartbeatTime(at).withLastTransitionTime(at).build();
    }
}
