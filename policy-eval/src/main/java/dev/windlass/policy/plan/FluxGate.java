package dev.windlass.policy.plan;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.FluxHealth;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.observe.ClusterObservation;
import dev.windlass.policy.observe.LiveObject;
import dev.windlass.policy.state.Health;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * What an application that depends on a Flux Kustomization waits for beyond that Kustomization's own objects, as Flux's
 * readiness of it says ({@link FluxHealth}): with {@code wait: true}, every application made from a HelmRelease its build
 * printed; and each {@code healthChecks} entry, an application (whose own readiness counts in turn, for a Kustomization)
 * or an object on the same cluster. A HelmRelease printed by the Kustomization's own build waits for its objects only, as
 * in Flux, where the release exists once the Kustomization applied it.
 */
final class FluxGate {
    private FluxGate() {}

    /**
     * The first part of {@code dependency}'s readiness not Healthy on {@code cluster}, or null when all are (or the
     * dependency says nothing beyond its own objects).
     *
     * @param health each planned application's health, by name and cluster, as this pass judged it
     */
    static HoldReason unmet(Application dependent, String dependency, String cluster, Map<String, Application> apps,
                            Map<String, Map<String, Health>> health, ClusterObservation obs) {
        if (dependency.equals(FluxHealth.printedBy(dependent))) return null;
        Application d = apps.get(dependency);
        if (d == null) return null;
        return unmet(dependency, d, cluster, apps, health, obs, new HashSet<>());
    }

    private static HoldReason unmet(String dependency, Application kustomization, String cluster, Map<String, Application> apps,
                                    Map<String, Map<String, Health>> health, ClusterObservation obs, Set<String> seen) {
        FluxHealth gate = FluxHealth.of(kustomization);
        if (!gate.any() || !seen.add(kustomization.name())) return null;
        if (gate.waitForPrinted()) {
            for (Application app : apps.values()) {
                if (!kustomization.name().equals(FluxHealth.printedBy(app))) continue;
                Health h = appHealth(app, cluster, health);
                if (h != null && h != Health.Healthy) return new HoldReason.AwaitsFluxHealth(dependency, new HoldReason.Awaited.PrintedRelease(app.name()), h, cluster);
            }
        }
        for (FluxHealth.Check check : gate.checks()) {
            switch (check) {
                case FluxHealth.OfApp a -> {
                    Application app = apps.get(a.app());
                    // Named nothing Windlass knows: an error where the entry is read; here it holds, never lets through.
                    Health h = app == null || !FluxHealth.madeFrom(app, a.kind()) ? Health.Unknown : appHealth(app, cluster, health);
                    if (h != null && h != Health.Healthy) return new HoldReason.AwaitsFluxHealth(dependency, new HoldReason.Awaited.CheckedApp(a.app()), h, cluster);
                    if (h != null && a.kind().equals("Kustomization")) {
                        HoldReason inner = unmet(dependency, app, cluster, apps, health, obs, seen);
                        if (inner != null) return inner;
                    }
                }
                case FluxHealth.OfObject o -> {
                    LiveObject live = find(obs, o.ref());
                    Health h = live == null ? Health.Missing : live.health();
                    if (h != Health.Healthy) return new HoldReason.AwaitsFluxHealth(dependency, new HoldReason.Awaited.CheckedObject(o.ref()), h, cluster);
                }
            }
        }
        return null;
    }

    /** The object on the cluster: by the entry's namespace, or by name alone for a cluster-scoped kind; null when absent. */
    static LiveObject find(ClusterObservation obs, ObjectRef ref) {
        LiveObject live = obs.objects().get(ref);
        return live != null ? live : obs.objects().get(new ObjectRef(ref.group(), ref.kind(), "", ref.name()));
    }

    /**
     * The application's health on the cluster; Unknown when it is invalid (nothing of it is applied, so it is not ready);
     * null when it is not placed there.
     */
    private static Health appHealth(Application app, String cluster, Map<String, Map<String, Health>> health) {
        if (!app.valid()) return Health.Unknown;
        Map<String, Health> byCluster = health.get(app.name());
        return byCluster == null ? null : byCluster.get(cluster);
    }
}
