package dev.windlass.policy.parse;

import dev.windlass.policy.alert.Alert;
import dev.windlass.policy.alert.Alerting;
import dev.windlass.policy.alert.Provider;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.text.Excerpt;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The Providers and Alerts of a commit. One with errors, or one of two sharing a name, is not used; an Alert naming no
 * Provider is an error at its providerRef. Nothing else is held: alerts only tell of what happens.
 */
final class Alerts {
    private final SameNames providerNames = new SameNames("Provider");
    private final SameNames alertNames = new SameNames("Alert");
    private final List<Provider> providers = new ArrayList<>();
    private final List<AlertReader.Read> alerts = new ArrayList<>();
    /** Names of Providers written in the repo, usable or not: an Alert naming a broken one is not an error of its own. */
    private final Set<String> declared = new TreeSet<>();

    void readProvider(YamlDoc doc, List<Diagnostic> found) {
        providerNames.add(doc);
        String name = DocPositions.name(doc);
        if (name != null) declared.add(name);
        Provider p = ProviderReader.read(doc, found);
        if (p != null) providers.add(p);
    }

    void readAlert(YamlDoc doc, List<Diagnostic> found) {
        alertNames.add(doc);
        AlertReader.Read a = AlertReader.read(doc, found);
        if (a != null) alerts.add(a);
    }

    /**
     * Errors at each RolloutPolicy's {@code spec.revertPullRequest.providerRef} that names no Provider, or one that is not
     * of type github or gitea (a pull request is opened on a Git host only).
     */
    List<Diagnostic> checkRevertRefs(java.util.Collection<dev.windlass.policy.model.RolloutPolicy> policies) {
        List<Diagnostic> out = new ArrayList<>();
        for (dev.windlass.policy.model.RolloutPolicy p : policies) {
            dev.windlass.policy.model.RolloutPolicy.RevertPullRequest r = p.revertPullRequest();
            if (r == null) continue;
            if (!declared.contains(r.providerRef())) {
                out.add(Diagnostic.error(r.at(), "RolloutPolicy.spec.revertPullRequest.providerRef names Provider " + Excerpt.quoted(r.providerRef())
                        + ", which no file defines; add a Provider of type github or gitea by that name or name one of: "
                        + (declared.isEmpty() ? "(none yet)" : String.join(", ", declared))));
                continue;
            }
            providers.stream().filter(x -> x.name().equals(r.providerRef()) && !x.type().commitStatus()).findFirst().ifPresent(x ->
                    out.add(Diagnostic.error(r.at(), "RolloutPolicy.spec.revertPullRequest.providerRef names Provider " + Excerpt.quoted(r.providerRef())
                            + " of type " + x.type() + "; a revert pull request is opened on a Git host: name a Provider of type github or gitea")));
        }
        return out;
    }

    /** Every usable Provider and Alert, with the errors that only the whole commit shows. */
    record Checked(Alerting alerting, List<Diagnostic> diagnostics) {}

    Checked check() {
        List<Diagnostic> out = new ArrayList<>(providerNames.errors());
        out.addAll(alertNames.errors());
        SortedMap<String, Provider> usable = new TreeMap<>();
        for (Provider p : providers) if (!providerNames.duplicated(p.name())) usable.put(p.name(), p);
        List<Alert> usableAlerts = new ArrayList<>();
        for (AlertReader.Read r : alerts) {
            if (alertNames.duplicated(r.alert().name())) continue;
            if (!declared.contains(r.alert().providerRef())) {
                out.add(Diagnostic.error(r.providerRefAt(), "Alert.spec.providerRef names Provider " + Excerpt.quoted(r.alert().providerRef())
                        + ", which no file defines; add that Provider or name one of: "
                        + (declared.isEmpty() ? "(none yet)" : String.join(", ", declared))));
                continue;
            }
            usableAlerts.add(r.alert());
        }
        return new Checked(new Alerting(usable, usableAlerts), out);
    }
}
