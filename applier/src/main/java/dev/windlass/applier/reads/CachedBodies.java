package dev.windlass.applier.reads;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.stream.Stream;

/**
 * What a watch has delivered for one query, kept as the bodies reads return: each object once, as a frozen JSON tree
 * made when it is delivered (so the object as the library delivered it dies young, and is never held beside its body).
 * The watch's own bookkeeping is handed a stand-in that carries only the identity and resource version it needs (to
 * tell updates from replays and to find deletions on a relist).
 */
final class CachedBodies implements ItemStore<GenericKubernetesResource> {

    /** One object: its stand-in and its body. */
    private record Item(GenericKubernetesResource standIn, Map<String, Object> body) {
        String resourceVersion() {
            String rv = standIn.getMetadata().getResourceVersion();
            return rv == null ? "" : rv;
        }
    }

    private final KubernetesSerialization json;
    private final Query query;
    private final ConcurrentSkipListMap<String, Item> items = new ConcurrentSkipListMap<>();
    private long deliveries;  // guarded by this: puts and removes so far
    private long changes;     // guarded by this: puts at a new resource version (but a Node's heartbeat), and removes, so far

    CachedBodies(KubernetesSerialization json, Query query) {
        this.json = json;
        this.query = query;
    }

    /** How many objects the watch has delivered or removed so far. */
    synchronized long deliveries() { return deliveries; }

    /**
     * How many changes the watch has delivered so far: objects at a new resource version, and removals; not replays, nor
     * a Node's heartbeat ({@link NodeHeartbeat}), which is kept but is no change a reader looks at.
     */
    synchronized long changes() { return changes; }

    /** Waits until the watch delivers or removes something after {@code seen} deliveries, or {@code millis} pass. */
    synchronized void awaitDeliveryAfter(long seen, long millis) throws InterruptedException {
        long deadline = System.nanoTime() + millis * 1_000_000;
        for (long left = millis; deliveries == seen && left > 0; left = (deadline - System.nanoTime()) / 1_000_000) {
            wait(left);
        }
    }

    private synchronized void delivered() {
        deliveries++;
        notifyAll();
    }

    private synchronized void changed() {
        changes++;
        delivered();
    }

    /** The bodies held now, in key order. */
    List<Map<String, Object>> bodies() { return items.values().stream().map(Item::body).toList(); }

    /**
     * {@code listed}, with each object this holds at the same resource version replaced by the body this holds: the
     * same object at the same resource version is the same content, and handing out the same body lets a reader tell
     * "unchanged" by reference (the planner does).
     */
    List<Map<String, Object>> sameBodies(List<Map<String, Object>> listed) {
        List<Map<String, Object>> out = new java.util.ArrayList<>(listed.size());
        for (Map<String, Object> body : listed) {
            Item held = items.get(Listing.key(body));
            out.add(held != null && held.resourceVersion().equals(Listing.resourceVersion(body)) ? held.body() : body);
        }
        return out;
    }

    /** The body held for {@code listed}'s object at the same resource version, or null. */
    Map<String, Object> heldAt(GenericKubernetesResource listed) {
        if (listed.getMetadata() == null || listed.getMetadata().getResourceVersion() == null) return null;
        Item held = items.get(getKey(listed));
        return held != null && held.resourceVersion().equals(listed.getMetadata().getResourceVersion()) ? held.body() : null;
    }

    /** Whether this holds exactly the objects of {@code listed}, each at the same resource version. */
    boolean matches(List<Map<String, Object>> listed) {
        if (listed.size() != items.size()) return false;
        for (Map<String, Object> body : listed) {
            Item held = items.get(Listing.key(body));
            if (held == null || !held.resourceVersion().equals(Listing.resourceVersion(body))) return false;
        }
        return true;
    }

    /** Whether this holds exactly the objects of {@code versions} (key to resource version), each at that version. */
    boolean holdsExactly(Map<String, String> versions) {
        if (versions.size() != items.size()) return false;
        for (Map.Entry<String, String> e : versions.entrySet()) {
            Item held = items.get(e.getKey());
            if (held == null || !held.resourceVersion().equals(e.getValue())) return false;
        }
        return true;
    }

    @Override public String getKey(GenericKubernetesResource object) {
        ObjectMeta meta = object.getMetadata();
        String ns = meta.getNamespace();
        return (ns == null || ns.isEmpty() ? "" : ns + "/") + meta.getName();
    }

    /**
     * Keeps the item it holds when {@code object} is at the same resource version (a relist or a reconnect delivers
     * every object again): the same version is the same content, and its body stays the same body.
     */
    @Override public GenericKubernetesResource put(String key, GenericKubernetesResource object) {
        Item held = items.get(key);
        String rv = object.getMetadata() == null ? null : object.getMetadata().getResourceVersion();
        if (held != null && rv != null && rv.equals(held.resourceVersion())) {
            delivered();
            return held.standIn;
        }
        Map<String, Object> body = Listing.body(json, query, object);
        Item old = items.put(key, new Item(standIn(object), body));
        if (old != null && NodeHeartbeat.only(query, old.body(), body)) delivered();
        else changed();
        return old == null ? null : old.standIn;
    }

    @Override public GenericKubernetesResource remove(String key) {
        Item old = items.remove(key);
        changed();
        return old == null ? null : old.standIn;
    }

    @Override public Stream<String> keySet() { return items.keySet().stream(); }

    @Override public Stream<GenericKubernetesResource> values() { return items.values().stream().map(i -> i.standIn); }

    @Override public int size() { return items.size(); }

    @Override public GenericKubernetesResource get(String key) {
        Item item = items.get(key);
        return item == null ? null : item.standIn;
    }

    private static GenericKubernetesResource standIn(GenericKubernetesResource object) {
        ObjectMeta meta = object.getMetadata();
        ObjectMeta kept = new ObjectMeta();
        kept.setName(meta.getName());
        kept.setNamespace(meta.getNamespace());
        kept.setUid(meta.getUid());
        kept.setResourceVersion(meta.getResourceVersion());
        GenericKubernetesResource standIn = new GenericKubernetesResource();
        standIn.setApiVersion(object.getApiVersion());
        standIn.setKind(object.getKind());
        standIn.setMetadata(kept);
        return standIn;
    }
}
