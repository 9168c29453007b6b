package dev.windlass.policy.model;

import java.util.List;
import java.util.Set;
import java.util.SortedMap;

/**
 * Everything one commit asks for, after parsing and validation.
 *
 * @param brokenFiles paths that could not be read as YAML at all, or that hold a Cluster, an unreadable
 *                    Application or a RemediationPolicy with errors; anything that was defined there
 *                    before is held, never deleted, until the file is fixed
 * @param diagnostics every problem in the repo, sorted by location
 * @param rolloutOf   for each application with a rollout policy, the policy's name
 * @param freezes     every valid Freeze, in force or not (whether a window is open depends on the time)
 * @param failoverOf  for each application with a failover policy, the policy's name
 * @param author      who made the commit ("Name <email>"), for records such as who suspended what
 * @param remediationPolicies every valid RemediationPolicy, by name; they select clusters, not applications
 * @param alerting    every usable Provider and Alert: who is told of what the engine does
 */
public record DesiredState(String commit, Settings settings, SortedMap<String, Cluster> clusters,
                           SortedMap<String, Application> apps, Set<String> brokenFiles,
                           List<Diagnostic> diagnostics, SortedMap<String, RolloutPolicy> rolloutPolicies,
                           java.util.Map<String, String> rolloutOf, List<Freeze> freezes, String author,
                           SortedMap<String, FailoverPolicy> failoverPolicies, java.util.Map<String, String> failoverOf,
                           SortedMap<String, RemediationPolicy> remediationPolicies, dev.windlass.policy.alert.Alerting alerting) {

    public DesiredState(String commit, Settings settings, SortedMap<String, Cluster> clusters, SortedMap<String, Application> apps,
                        Set<String> brokenFiles, List<Diagnostic> diagnostics, SortedMap<String, RolloutPolicy> rolloutPolicies,
                        java.util.Map<String, String> rolloutOf, List<Freeze> freezes, String author,
                        SortedMap<String, FailoverPolicy> failoverPolicies, java.util.Map<String, String> failoverOf,
                        SortedMap<String, RemediationPolicy> remediationPolicies) {
        this(commit, settings, clusters, apps, brokenFiles, diagnostics, rolloutPolicies, rolloutOf, freezes, author,
                failoverPolicies, failoverOf, remediationPolicies, dev.windlass.policy.alert.Alerting.NONE);
    }

    public DesiredState(String commit, Settings settings, SortedMap<String, Cluster> clusters, SortedMap<String, Application> apps,
                        Set<String> brokenFiles, List<Diagnostic> diagnostics, SortedMap<String, RolloutPolicy> rolloutPolicies,
                        java.util.Map<String, String> rolloutOf, List<Freeze> freezes, String author,
                        SortedMap<String, FailoverPolicy> failoverPolicies, java.util.Map<String, String> failoverOf) {
        this(commit, settings, clusters, apps, brokenFiles, diagnostics, rolloutPolicies, rolloutOf, freezes, author,
                failoverPolicies, failoverOf, new java.util.TreeMap<>());
    }

    public DesiredState(String commit, Settings settings, SortedMap<String, Cluster> clusters, SortedMap<String, Application> apps,
                        Set<String> brokenFiles, List<Diagnostic> diagnostics, SortedMap<String, RolloutPolicy> rolloutPolicies,
                        java.util.Map<String, String> rolloutOf, List<Freeze> freezes, String author) {
        this(commit, settings, clusters, apps, brokenFiles, diagnostics, rolloutPolicies, rolloutOf, freezes, author,
                new java.util.TreeMap<>(), java.util.Map.of());
    }

    public DesiredState {
        clusters = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(clusters));
        apps = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(apps));
        brokenFiles = Set.copyOf(brokenFiles);
        diagnostics = List.copyOf(diagnostics);
        rolloutPolicies = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(rolloutPolicies));
        rolloutOf = java.util.Map.copyOf(rolloutOf);
        freezes = List.copyOf(freezes);
        author = author == null ? "" : author;
        failoverPolicies = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(failoverPolicies == null ? java.util.Map.of() : failoverPolicies));
        failoverOf = failoverOf == null ? java.util.Map.of() : java.util.Map.copyOf(failoverOf);
        remediationPolicies = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(remediationPolicies == null ? java.util.Map.of() : remediationPolicies));
        alerting = alerting == null ? dev.windlass.policy.alert.Alerting.NONE : alerting;
    }

    /** The failover policy of an application, or null when it has none (then it never moves by itself). */
    public FailoverPolicy failoverPolicy(String app) {
        String name = failoverOf.get(app);
        return name == null ? null : failoverPolicies.get(name);
    }

    /** The rollout policy of an application, or null when it has none (then a new revision goes everywhere at once). */
    public RolloutPolicy rolloutPolicy(String app) {
        String name = rolloutOf.get(app);
        return name == null ? null : rolloutPolicies.get(name);
    }

    public boolean hasErrors() { return diagnostics.stream().anyMatch(Diagnostic::isError); }

    /** This state with other applications and diagnostics, everything else kept (a step that renders or decrypts apps). */
    public DesiredState withApps(SortedMap<String, Application> apps, List<Diagnostic> diagnostics) {
        return new DesiredState(commit, settings, clusters, apps, brokenFiles, diagnostics, rolloutPolicies, rolloutOf, freezes, author,
                failoverPolicies, failoverOf, remediationPolicies, alerting);
    }

    /** This state with other Providers and Alerts and diagnostics, everything else kept. */
    public DesiredState withAlerting(dev.windlass.policy.alert.Alerting alerting, List<Diagnostic> diagnostics) {
        return new DesiredState(commit, settings, clusters, apps, brokenFiles, diagnostics, rolloutPolicies, rolloutOf, freezes, author,
                failoverPolicies, failoverOf, remediationPolicies, alerting);
    }
}
