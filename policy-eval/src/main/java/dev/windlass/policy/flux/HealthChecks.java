package dev.windlass.policy.flux;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.FluxHealth;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.text.Excerpt;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Whether each {@code healthChecks} entry of a Flux Kustomization names something Windlass knows, once every application
 * is rendered (the HelmReleases' applications exist only then): a HelmRelease's or Kustomization's application, or an
 * object some application applies. An entry that names nothing is an error at it, which holds that Kustomization's
 * application only. While some application could not be rendered, what it would have made is not known, and nothing is
 * said of entries it might hold; the planner holds their dependents meanwhile (an absent application or object is never
 * Healthy).
 */
public final class HealthChecks {
    private static final String FOLDER = "flux.windlass.dev/folder";

    private HealthChecks() {}

    /** The errors of each application whose entries name nothing Windlass knows, by application name. */
    public static Map<String, List<Diagnostic>> unknown(Map<String, Application> apps) {
        boolean allKnown = apps.values().stream().allMatch(Application::valid);
        Map<String, List<Diagnostic>> out = new LinkedHashMap<>();
        for (Application app : apps.values()) {
            for (FluxHealth.Check check : FluxHealth.of(app).checks()) {
                String wrong = switch (check) {
                    case FluxHealth.OfApp a -> namesApp(a, app, apps);
                    case FluxHealth.OfObject o -> allKnown && !declared(o.ref(), apps) ? "healthChecks names " + o.ref() + ", which no"
                            + " application applies, so Windlass cannot tell its health; name an object that a Kustomization or"
                            + " HelmRelease of the repo applies (with its namespace), or remove the entry" : null;
                };
                if (wrong != null) out.computeIfAbsent(app.name(), k -> new ArrayList<>()).add(Diagnostic.error(check.at(), wrong));
            }
        }
        return out;
    }

    private static String namesApp(FluxHealth.OfApp a, Application self, Map<String, Application> apps) {
        Application named = apps.get(a.app());
        if (named != null && FluxHealth.madeFrom(named, a.kind())) {
            // What depends on this Kustomization waits for its readiness: it cannot be part of it (a release its own build
            // printed waits for its objects only, and can be).
            boolean waitsForSelf = named.dependsOn().contains(self.name()) && !self.name().equals(FluxHealth.printedBy(named));
            return !waitsForSelf ? null : "healthChecks names the " + a.kind() + " of application " + a.app() + ", which depends on this"
                    + " Kustomization: it waits for this one's readiness, so this one would never be ready; remove the entry, or the"
                    + " dependency";
        }
        String folder = self.labels().getOrDefault(FOLDER, "");
        // A Kustomization of the folder that did not build: the releases it would print are not known.
        boolean built = apps.values().stream().noneMatch(k -> !k.valid() && FluxHealth.madeFrom(k, "Kustomization")
                && folder.equals(k.labels().get(FOLDER)));
        if (named == null && !built) return null;
        String name = a.app().substring(Math.min(a.app().length(), folder.length() + 1));
        return a.kind().equals("HelmRelease")
                ? "healthChecks names the HelmRelease " + Excerpt.quoted(name) + ", which no Kustomization of this cluster folder prints"
                        + " (there is no application " + a.app() + " made from one); name a HelmRelease a Kustomization's build prints,"
                        + " or remove the entry"
                : "healthChecks names the Kustomization " + Excerpt.quoted(name) + ", which is not in this cluster folder (there is no"
                        + " application " + a.app() + " made from one); name a Kustomization of the same folder, or remove the entry";
    }

    /** Whether some application declares the object: by its namespace, or by name alone for a cluster-scoped kind. */
    private static boolean declared(ObjectRef ref, Map<String, Application> apps) {
        for (Application app : apps.values()) {
            for (Manifest m : app.allManifests()) {
                ObjectRef r = m.ref();
                if (r.group().equals(ref.group()) && r.kind().equals(ref.kind()) && r.name().equals(ref.name())
                        && (r.namespace().equals(ref.namespace()) || r.namespace().isEmpty())) return true;
            }
        }
        return false;
    }
}
