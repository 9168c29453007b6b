package dev.windlass.applier.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.windlass.policy.state.InventoryEntry;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The text stored in an inventory ConfigMap: sorted, readable, and read back as written. */
class InventoryRecordTest {

    private static final InventoryEntry DEPLOYMENT = new InventoryEntry("apps/v1", "Deployment", "web", "frontend", "1d7b01005e22", dev.windlass.policy.model.Manifest.GcPolicy.ON_APP_UPDATE);
    private static final InventoryEntry NAMESPACE = new InventoryEntry("v1", "Namespace", "", "web-extra", "0123456789", dev.windlass.policy.model.Manifest.GcPolicy.NEVER);

    @Test void writesSortedYamlThatReadsBack() {
        InventoryRecord record = InventoryRecord.of(List.of(DEPLOYMENT, NAMESPACE));

        assertEquals("""
                - apiVersion: v1
                  kind: Namespace
                  namespace: ""
                  name: web-extra
                  hash: '0123456789'
                  gc: Never
                - apiVersion: apps/v1
                  kind: Deployment
                  namespace: web
                  name: frontend
                  hash: 1d7b01005e22
                  gc: OnAppUpdate
                """, record.toYaml());
        assertEquals(record, InventoryRecord.parse(record.toYaml()));
    }

    @Test void aNewVersionOfAnObjectReplacesItsEntry() {
        var moved = new InventoryEntry("apps/v1", "Deployment", "web", "frontend", "ffff", dev.windlass.policy.model.Manifest.GcPolicy.ON_APP_DELETE);

        InventoryRecord record = InventoryRecord.of(List.of(DEPLOYMENT)).with(List.of(moved));

        assertEquals(List.of(moved), record.list());
        assertEquals(InventoryRecord.EMPTY, record.without(List.of(moved.ref())));
    }

    @Test void aGcPolicyThatIsMissingOrUnknownReadsAsNeverSoNothingBecomesDeletable() {
        InventoryRecord read = InventoryRecord.parse("""
                - apiVersion: v1
                  kind: ConfigMap
                  namespace: web
                  name: edited-by-hand
                  gc: Sometimes
                - apiVersion: v1
                  kind: ConfigMap
                  namespace: web
                  name: without-gc
                """);

        assertEquals(List.of(dev.windlass.policy.model.Manifest.GcPolicy.NEVER, dev.windlass.policy.model.Manifest.GcPolicy.NEVER),
                read.list().stream().map(InventoryEntry::gc).toList());
    }

    @Test void somethingElseIsNotAnInventory() {
        assertThrows(IllegalArgumentException.class, () -> InventoryRecord.parse("just: a map"));
        assertThrows(IllegalArgumentException.class, () -> InventoryRecord.parse("- kind: Deployment"));
    }
}
