package dev.windlass.applier.inventory;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.windlass.policy.model.Manifest.GcPolicy;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.state.InventoryEntry;
import java.util.Collection;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One application's inventory on one cluster: an entry per object, keyed by identity (a new API version of the
 * same object replaces its entry). Stored as YAML, sorted, so an unchanged inventory is byte-for-byte the same.
 */
public record InventoryRecord(SortedMap<ObjectRef, InventoryEntry> entries) {

    private static final YAMLMapper YAML = YAMLMapper.builder(YAMLFactory.builder()
                    .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                    .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES).build())
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();
    private static final TypeReference<List<Entry>> ENTRIES = new TypeReference<>() {};

    /** An entry as the record on the cluster holds it: the gc policy as its word (OnAppUpdate, OnAppDelete, Never). */
    private record Entry(String apiVersion, String kind, String namespace, String name, String hash, String gc) {
        static Entry of(InventoryEntry e) {
            return new Entry(e.apiVersion(), e.kind(), e.namespace(), e.name(), e.hash(), e.gc() == null ? null : e.gc().word());
        }
    }

    public static final InventoryRecord EMPTY = new InventoryRecord(new TreeMap<>());

    public InventoryRecord {
        entries = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(entries));
    }

    public static InventoryRecord of(Collection<InventoryEntry> entries) {
        SortedMap<ObjectRef, InventoryEntry> byRef = new TreeMap<>();
        entries.forEach(e -> byRef.put(e.ref(), e));
        return new InventoryRecord(byRef);
    }

    /** This record with {@code added} put in, replacing entries of the same objects. */
    public InventoryRecord with(Collection<InventoryEntry> added) {
        SortedMap<ObjectRef, InventoryEntry> next = new TreeMap<>(entries);
        added.forEach(e -> next.put(e.ref(), e));
        return new InventoryRecord(next);
    }

    public InventoryRecord without(Collection<ObjectRef> removed) {
        SortedMap<ObjectRef, InventoryEntry> next = new TreeMap<>(entries);
        removed.forEach(next::remove);
        return new InventoryRecord(next);
    }

    public boolean isEmpty() { return entries.isEmpty(); }

    public List<InventoryEntry> list() { return List.copyOf(entries.values()); }

    public String toYaml() {
        try {
            return YAML.writeValueAsString(list().stream().map(Entry::of).toList());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("inventory entries are plain strings; cannot fail: " + e.getMessage(), e);
        }
    }

    /** Parses what {@link #toYaml} wrote; throws {@link IllegalArgumentException} for anything else. */
    public static InventoryRecord parse(String yaml) {
        if (yaml == null || yaml.isBlank()) return EMPTY;
        try {
            List<Entry> read = YAML.readValue(yaml, ENTRIES);
            return of(read.stream().map(InventoryRecord::normalized).toList());
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not an inventory: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * A cluster-scoped object's namespace may be written as {@code ""} or left out. A gc policy that is missing, or a
     * word that is none of OnAppUpdate, OnAppDelete and Never, reads as Never: an inventory edited by hand must not
     * make anything deletable that was not before.
     */
    private static InventoryEntry normalized(Entry e) {
        if (e == null || e.apiVersion() == null || e.kind() == null || e.name() == null) {
            throw new IllegalArgumentException("not an inventory: an entry lacks apiVersion, kind or name");
        }
        GcPolicy gc = GcPolicy.ofWord(e.gc());
        return new InventoryEntry(e.apiVersion(), e.kind(), e.namespace() == null ? "" : e.namespace(), e.name(),
                e.hash() == null ? "" : e.hash(), gc == null ? GcPolicy.NEVER : gc);
    }
}
