package dev.windlass.policy.model;

import java.util.List;
import java.util.Set;
import java.util.SortedMap;

/**
 * Everything one commit asks for, after parsing and validation.
 *
 * @param brokenFiles paths that could not be read as YAML at all; anything that was defined there
 *                    before is held, never deleted, until the file is fixed
 * @param diagnostics every problem in the repo, sorted by location
 */
public record DesiredState(String commit, Settings settings, SortedMap<String, Cluster> clusters,
                           SortedMap<String, Application> apps, Set<String> brokenFiles,
                           List<Diagnostic> diagnostics) {

    public DesiredState {
        clusters = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(clusters));
        apps = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(apps));
        brokenFiles = Set.copyOf(brokenFiles);
        diagnostics = List.copyOf(diagnostics);
    }

    public boolean hasErrors() { return diagnostics.stream().anyMatch(Diagnostic::isError); }
}
