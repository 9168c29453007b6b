package dev.windlass.applier.inventory;

import dev.windlass.policy.state.InventoryEntry;
import java.util.List;
import java.util.Map;

/**
 * One cluster's inventory records as last parsed, by application. A record whose text is unchanged is not parsed
 * again: with watches, an unchanged ConfigMap hands out the very same text, so a pass costs a reference comparison
 * per record instead of a YAML parse. Records not seen in the last read are forgotten.
 */
public final class InventoryParses {
    private record Parsed(String text, List<InventoryEntry> entries) {}

    private volatile Map<String, Parsed> last = Map.of();
    private volatile int parsedLastRead;

    /** How many records the last {@link InventoryConfigMaps#readAll} parsed; the rest were reused. */
    public int parsedLastRead() { return parsedLastRead; }

    Reading reading() { return new Reading(); }

    /** One {@link InventoryConfigMaps#readAll}: parses what changed, and replaces what is kept when done. */
    final class Reading {
        private final Map<String, Parsed> now = new java.util.HashMap<>();
        private int parsed;

        /** @throws IllegalArgumentException when {@code text} is not an inventory */
        List<InventoryEntry> entries(String app, String text) {
            Parsed before = last.get(app);
            Parsed p;
            if (before != null && java.util.Objects.equals(before.text, text)) {
                p = before;
            } else {
                p = new Parsed(text, InventoryRecord.parse(text).list());
                parsed++;
            }
            now.put(app, p);
            return p.entries;
        }

        void done() {
            last = Map.copyOf(now);
            parsedLastRead = parsed;
        }
    }
}
