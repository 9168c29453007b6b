package dev.windlass.applier.reads;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Whether a watch's update of a Node is only its kubelet's heartbeat: the same body but for the resource version and
 * each condition's {@code lastHeartbeatTime}. A kubelet writes its Node's status every few minutes even when nothing
 * changed (every five by default), so a cluster of a hundred nodes sends such an update every few seconds. Windlass
 * reads a Node's conditions (their status, reason, message and last transition), labels, annotations and
 * schedulability, never when it last beat. A heartbeat is kept in the
 * watch's cache (its new resource version is what the next proof compares) but is not a change a pass must look at.
 */
final class NodeHeartbeat {
    private NodeHeartbeat() {}

    /** Whether {@code after} differs from {@code before} only as a heartbeat does; false for any kind but a core Node. */
    static boolean only(Query query, Map<String, Object> before, Map<String, Object> after) {
        if (!"v1".equals(query.apiVersion()) || !"Node".equals(query.kind())) return false;
        return withoutBeat(before).equals(withoutBeat(after));
    }

    /** The body without its resource version and its conditions' heartbeat times. */
    private static Map<String, Object> withoutBeat(Map<String, Object> body) {
        Map<String, Object> out = new LinkedHashMap<>(body);
        if (body.get("metadata") instanceof Map<?, ?> metadata) out.put("metadata", without(metadata, "resourceVersion"));
        if (body.get("status") instanceof Map<?, ?> status && status.get("conditions") instanceof List<?> conditions) {
            Map<Object, Object> s = new LinkedHashMap<>(status);
            s.put("conditions", conditions.stream().map(c -> c instanceof Map<?, ?> m ? without(m, "lastHeartbeatTime") : c).toList());
            out.put("status", s);
        }
        return out;
    }

    private static Map<Object, Object> without(Map<?, ?> map, String field) {
        Map<Object, Object> out = new LinkedHashMap<>(map);
        out.remove(field);
        return out;
    }
}
