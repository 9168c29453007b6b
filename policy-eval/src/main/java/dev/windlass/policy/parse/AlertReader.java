package dev.windlass.policy.parse;

import dev.windlass.policy.alert.Alert;
import dev.windlass.policy.alert.AlertKind;
import dev.windlass.policy.alert.Severity;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.LabelSelector;
import dev.windlass.policy.model.SourceLocation;
import dev.windlass.policy.text.Excerpt;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** Reads {@code kind: Alert}: which events go to which Provider. */
final class AlertReader {
    private AlertReader() {}

    /** An Alert and where its providerRef is, for the error when no Provider has that name. */
    record Read(Alert alert, SourceLocation providerRefAt) {}

    static Read read(YamlDoc doc, List<Diagnostic> out) {
        int before = out.size();
        Envelope envelope = Envelope.read(doc, "Alert", out);
        Metadata meta = envelope.meta();
        Fields spec = envelope.spec();
        if (spec == null) {
            envelope.root().errorHere("Alert.spec is required: at least providerRef, the Provider to tell");
            return null;
        }
        String providerRef = null;
        if (!spec.has("providerRef")) spec.errorHere("Alert.spec.providerRef is required: {name: <a Provider's metadata.name>}");
        else {
            Fields ref = spec.object("providerRef");
            if (ref != null) {
                providerRef = ref.requiredString("name");
                ref.end();
            }
        }
        SourceLocation providerRefAt = spec.at("providerRef");
        Set<AlertKind> kinds = EnumSet.noneOf(AlertKind.class);
        List<String> names = spec.strings("eventKinds");
        for (int i = 0; i < names.size(); i++) {
            String n = names.get(i);
            AlertKind k = kind(n);
            if (k == null) {
                spec.error("eventKinds", "Alert.spec.eventKinds[" + i + "] is " + Excerpt.quoted(n) + ", not an event kind; use some of "
                        + String.join(", ", Alert.kindNames()) + " (or leave eventKinds out for all of them)");
            } else {
                kinds.add(k);
            }
        }
        Severity severity = spec.enumValue("severity", Severity.class, Severity.info);
        LabelSelector apps = spec.has("applicationSelector") ? SelectorReader.read(spec, "applicationSelector") : null;
        LabelSelector clusters = spec.has("clusterSelector") ? SelectorReader.read(spec, "clusterSelector") : null;
        spec.end();
        if (meta == null || providerRef == null || out.subList(before, out.size()).stream().anyMatch(Diagnostic::isError)) return null;
        return new Read(new Alert(meta.name(), providerRef, kinds, severity, apps, clusters,
                doc.location()), providerRefAt);
    }

    private static AlertKind kind(String name) {
        for (AlertKind k : AlertKind.values()) if (k.name().equals(name)) return k;
        return null;
    }
}
