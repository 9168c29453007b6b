package dev.windlass.applier.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.windlass.policy.state.InventoryEntry;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Reading a cluster's inventories pass after pass parses only the records that changed, and reads what a fresh read reads. */
class InventoryParsesTest {
    static final InventoryEntry WEB = new InventoryEntry("apps/v1", "Deployment", "web", "frontend", "1d7b01005e22", dev.windlass.policy.model.Manifest.GcPolicy.ON_APP_UPDATE);
    static final InventoryEntry DB = new InventoryEntry("apps/v1", "StatefulSet", "db", "db", "0123456789", dev.windlass.policy.model.Manifest.GcPolicy.ON_APP_DELETE);

    final InventoryParses parses = new InventoryParses();

    @Test
    void anUnchangedRecordIsNotParsedAgain() {
        List<Map<String, Object>> first = List.of(configMap("web", List.of(WEB)), configMap("db", List.of(DB)));
        assertEquals(InventoryConfigMaps.readAll(first), InventoryConfigMaps.readAll(first, parses));
        assertEquals(2, parses.parsedLastRead());

        assertEquals(InventoryConfigMaps.readAll(first), InventoryConfigMaps.readAll(first, parses));
        assertEquals(0, parses.parsedLastRead());

        InventoryEntry webMoved = new InventoryEntry("apps/v1", "Deployment", "web", "frontend", "ffff", dev.windlass.policy.model.Manifest.GcPolicy.ON_APP_UPDATE);
        List<Map<String, Object>> second = List.of(configMap("web", List.of(webMoved)), configMap("db", List.of(DB)));
        InventoryConfigMaps.Found found = InventoryConfigMaps.readAll(second, parses);
        assertEquals(1, parses.parsedLastRead(), "only web's record changed");
        assertEquals(List.of(webMoved), found.inventories().get("web"));
        assertEquals(InventoryConfigMaps.readAll(second), found);
    }

    @Test
    void anUnreadableRecordIsReportedEveryTimeUntilItIsFixed() {
        List<Map<String, Object>> broken = List.of(configMap("web", "not: [an inventory"));
        assertEquals(1, InventoryConfigMaps.readAll(broken, parses).problems().size());
        assertEquals(1, InventoryConfigMaps.readAll(broken, parses).problems().size(), "still unreadable, still said");

        List<Map<String, Object>> fixed = List.of(configMap("web", List.of(WEB)));
        assertEquals(List.of(WEB), InventoryConfigMaps.readAll(fixed, parses).inventories().get("web"));
        assertEquals(1, parses.parsedLastRead());
    }

    private static Map<String, Object> configMap(String app, List<InventoryEntry> entries) {
        return configMap(app, InventoryRecord.of(entries).toYaml());
    }

    private static Map<String, Object> configMap(String app, String text) {
        return Map.of("metadata", Map.of("name", "windlass-inventory-" + app, "namespace", InventoryConfigMaps.NAMESPACE,
                        "labels", Map.of("windlass.dev/app", app)),
                "data", Map.of(InventoryConfigMaps.KEY, text));
    }
}
