package dev.windlass.policy.source;

import java.util.Set;

/** Paths added, modified or deleted between two commits ({@code from} is null for the first pass). */
public record ChangeSet(String from, String to, Set<String> paths) {
    public ChangeSet {
        paths = Set.copyOf(paths);
    }

    public boolean isEmpty() { return paths.isEmpty(); }
}
