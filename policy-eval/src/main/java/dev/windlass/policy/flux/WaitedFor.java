package dev.windlass.policy.flux;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.FluxHealth;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The applications an application waits for when the Flux Kustomizations it depends on are ready as Flux says, written
 * out as a plain dependsOn list: its own dependencies, then for each that is a Kustomization with {@code wait: true} the
 * applications of the HelmReleases its build printed, and each application its {@code healthChecks} name (a
 * Kustomization's in turn). This is how {@code windlass import} says a Kustomization's readiness in the native format,
 * whose {@code dependsOn} waits for each application to be Healthy; {@code healthChecks} entries naming objects have no
 * such form ({@link #objectChecks}).
 */
public final class WaitedFor {
    private WaitedFor() {}

    /** {@code dependent}'s dependencies with what each Flux Kustomization among them waits for, in order, each once. */
    public static List<String> dependsOn(Application dependent, Map<String, Application> apps) {
        return dependsOn(dependent, apps, name -> true);
    }

    /**
     * The same, written out only for the Kustomizations {@code writtenOut} accepts: one that stays a Flux Kustomization
     * keeps its own readiness, which its dependents wait for as before.
     */
    public static List<String> dependsOn(Application dependent, Map<String, Application> apps, Predicate<String> writtenOut) {
        Set<String> out = new LinkedHashSet<>(dependent.dependsOn());
        for (String dep : dependent.dependsOn()) {
            Application d = apps.get(dep);
            // A release of the Kustomization's own build waits for its objects only, as in Flux.
            if (d == null || dep.equals(FluxHealth.printedBy(dependent))) continue;
            add(d, apps, out, new HashSet<>(), writtenOut);
        }
        out.remove(dependent.name());
        return List.copyOf(out);
    }

    private static void add(Application kustomization, Map<String, Application> apps, Set<String> out, Set<String> seen,
                            Predicate<String> writtenOut) {
        FluxHealth gate = FluxHealth.of(kustomization);
        if (!gate.any() || !writtenOut.test(kustomization.name()) || !seen.add(kustomization.name())) return;
        if (gate.waitForPrinted()) {
            for (Application a : apps.values()) if (kustomization.name().equals(FluxHealth.printedBy(a))) out.add(a.name());
        }
        for (FluxHealth.Check c : gate.checks()) {
            if (!(c instanceof FluxHealth.OfApp a)) continue;
            out.add(a.app());
            Application named = apps.get(a.app());
            if (named != null && a.kind().equals("Kustomization")) add(named, apps, out, seen, writtenOut);
        }
    }

    /** The {@code healthChecks} entries of {@code kustomization} that name objects, not applications. */
    public static List<FluxHealth.OfObject> objectChecks(Application kustomization) {
        List<FluxHealth.OfObject> out = new ArrayList<>();
        for (FluxHealth.Check c : FluxHealth.of(kustomization).checks()) if (c instanceof FluxHealth.OfObject o) out.add(o);
        return out;
    }
}
