package dev.windlass.applier.inventory;

import dev.windlass.applier.kube.JsonTree;
import dev.windlass.applier.kube.OwnershipMarks;
import dev.windlass.applier.kube.SentBody;
import dev.windlass.applier.kube.Target;
import dev.windlass.applier.reads.Query;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.state.InventoryEntry;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Inventories as ConfigMaps {@code windlass-system/windlass-inventory-<app>}, labelled {@value #LABEL}{@code =true}
 * and with the app's name, but not with the managed-by label: they are Windlass's bookkeeping, never observed as
 * objects of an application and never pruned. Every write is preceded by a read and skipped when it would change
 * nothing, so a pass without changes writes nothing here either.
 */
public final class InventoryConfigMaps {

    public static final String NAMESPACE = "windlass-system";
    public static final String LABEL = "windlass.dev/inventory";
    public static final String KEY = "inventory.yaml";
    public static final String PREFIX = "windlass-inventory-";

    /** Every app's inventory and the inventories that could not be read, from one LIST. */
    public record Found(Map<String, List<InventoryEntry>> inventories, List<String> problems) {}

    private InventoryConfigMaps() {}

    /** What {@link #readAll} lists: every inventory ConfigMap. */
    public static final Query QUERY = Query.of("v1", "ConfigMap").inNamespace(NAMESPACE).withLabel(LABEL, "true");

    /** Every app's inventory, and the inventories that could not be read, from the ConfigMaps {@link #QUERY} returned. */
    public static Found readAll(List<Map<String, Object>> configMaps) {
        return readAll(configMaps, new InventoryParses());
    }

    /** {@link #readAll(List)}, parsing only the records whose text changed since {@code parses} last read them. */
    public static Found readAll(List<Map<String, Object>> configMaps, InventoryParses parses) {
        InventoryParses.Reading reading = parses.reading();
        Map<String, List<InventoryEntry>> byApp = new TreeMap<>();
        List<String> problems = new ArrayList<>();
        for (Map<String, Object> map : configMaps) {
            Map<String, Object> meta = JsonTree.childMap(map, "metadata");
            Map<String, Object> labels = meta == null ? null : JsonTree.childMap(meta, "labels");
            Object app = labels == null ? null : labels.get(OwnershipMarks.APP);
            if (app == null) continue;
            Map<String, Object> data = JsonTree.childMap(map, "data");
            Object text = data == null ? null : data.get(KEY);
            try {
                byApp.put(app.toString(), reading.entries(app.toString(), text == null ? null : text.toString()));
            } catch (IllegalArgumentException e) {
                problems.add("inventory " + NAMESPACE + "/" + meta.get("name") + " unreadable: " + e.getMessage());
            }
        }
        reading.done();
        return new Found(byApp, problems);
    }

    /**
     * Puts {@code entries} into the app's inventory; returns whether anything was written.
     *
     * @param likelyAbsent the inventory is most likely not there yet (everything the app writes is a create): it is
     *                     created at once, without reading it first; if it was there after all (409), it is read and
     *                     updated as usual
     * @param namespace    whether {@value #NAMESPACE} is known to exist, shared by the writes of one cluster's stage
     * @param bodies       the new records' JSON already made for other clusters
     */
    public static boolean record(KubernetesClient client, String app, List<InventoryEntry> entries, boolean likelyAbsent,
                                 SystemNamespace namespace, InventoryBodies bodies) {
        if (likelyAbsent) {
            namespace.ensure(client);
            try {
                // Sent as JSON it already is: all its values are strings, and the answer is not needed.
                new Target(client, "v1", new ObjectRef("", "ConfigMap", NAMESPACE, PREFIX + app))
                        .create(new SentBody(bodies.of(app, entries, () -> JsonTree.toJson(created(app, InventoryRecord.EMPTY.with(entries))))));
                return true;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409) throw e;
            }
        }
        ConfigMap current = client.configMaps().inNamespace(NAMESPACE).withName(PREFIX + app).get();
        InventoryRecord before = current == null ? InventoryRecord.EMPTY : InventoryRecord.parse(data(current));
        InventoryRecord after = before.with(entries);
        if (current != null && after.equals(before)) return false;
        if (current == null) {
            namespace.ensure(client);
            client.configMaps().inNamespace(NAMESPACE).resource(configMap(app, after, null)).create();
        } else {
            // The resource version read above makes a concurrent change fail (409) instead of being overwritten.
            client.configMaps().inNamespace(NAMESPACE).resource(configMap(app, after, current)).update();
        }
        return true;
    }

    /** Takes {@code refs} out of the app's inventory, deleting it once empty; returns whether anything was written. */
    public static boolean release(KubernetesClient client, String app, Collection<ObjectRef> refs) {
        ConfigMap current = client.configMaps().inNamespace(NAMESPACE).withName(PREFIX + app).get();
        if (current == null) return false;
        InventoryRecord before = InventoryRecord.parse(data(current));
        InventoryRecord after = before.without(refs);
        if (after.equals(before)) return false;
        if (after.isEmpty()) {
            client.configMaps().inNamespace(NAMESPACE).withName(PREFIX + app).delete();
        } else {
            client.configMaps().inNamespace(NAMESPACE).resource(configMap(app, after, current)).update();
        }
        return true;
    }

    private static ConfigMap configMap(String app, InventoryRecord record, ConfigMap current) {
        return new ConfigMapBuilder()
                .withNewMetadata().withName(PREFIX + app).withNamespace(NAMESPACE)
                .addToLabels(LABEL, "true").addToLabels(OwnershipMarks.APP, app)
                .withResourceVersion(current == null ? null : current.getMetadata().getResourceVersion())
                .endMetadata()
                .addToData(KEY, record.toYaml())
                .build();
    }

    /** The ConfigMap {@link #configMap} builds for a new inventory, as a JSON tree. */
    private static Map<String, Object> created(String app, InventoryRecord record) {
        Map<String, Object> labels = new java.util.LinkedHashMap<>();
        labels.put(LABEL, "true");
        labels.put(OwnershipMarks.APP, app);
        Map<String, Object> metadata = new java.util.LinkedHashMap<>();
        metadata.put("name", PREFIX + app);
        metadata.put("namespace", NAMESPACE);
        metadata.put("labels", labels);
        Map<String, Object> configMap = new java.util.LinkedHashMap<>();
        configMap.put("apiVersion", "v1");
        configMap.put("kind", "ConfigMap");
        configMap.put("metadata", metadata);
        configMap.put("data", Map.of(KEY, record.toYaml()));
        return configMap;
    }

    private static String data(ConfigMap map) {
        return map.getData() == null ? null : map.getData().get(KEY);
    }
}
