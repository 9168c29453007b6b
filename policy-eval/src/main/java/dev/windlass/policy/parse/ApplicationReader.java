package dev.windlass.policy.parse;

import dev.windlass.policy.text.Excerpt;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Application.ApplyStrategy;
import dev.windlass.policy.model.Application.SyncPolicy;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.IgnoreDifferences;
import dev.windlass.policy.model.LabelSelector;
import dev.windlass.policy.model.RenderSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Reads {@code kind: Application}. The source path defaults to {@code manifests/} beside the file; {@code spec.source.helm}
 * and {@code spec.variants} are read by {@link RenderSpecReader}.
 */
final class ApplicationReader {
    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    private static final Pattern DNS_SUBDOMAIN = Pattern.compile("(?=.{1,253}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

    private ApplicationReader() {}

    static AppDeclaration read(YamlDoc doc, List<Diagnostic> out) {
        Envelope envelope = Envelope.read(doc, "Application", out);
        Fields root = envelope.root();
        Metadata meta = envelope.meta();
        Fields spec = envelope.spec();
        if (spec == null) {
            root.errorHere("Application.spec is required, with at least spec.placement");
            return null;
        }
        String dir = doc.path().contains("/") ? doc.path().substring(0, doc.path().lastIndexOf('/') + 1) : "";
        String sourcePath = dir + "manifests";
        Fields source = spec.object("source");
        RenderSpec.Helm helm = null;
        boolean allowEmpty = false;
        if (source != null) {
            helm = RenderSpecReader.helm(source, meta == null ? null : meta.name());
            String p = source.string("path", null);
            allowEmpty = source.bool("allowEmpty", false);
            source.end();
            if (p != null) sourcePath = normalize(p);
        }
        List<RenderSpec.VariantSpec> variants = RenderSpecReader.variants(spec);
        String namespace = spec.string("namespace", "default");
        if (!DNS_LABEL.matcher(namespace).matches()) {
            spec.error("namespace", "Application.spec.namespace " + Excerpt.quoted(namespace) + " is not a valid namespace name (lowercase letters, digits, '-')");
        }
        Fields placementFields = spec.has("placement") ? spec.object("placement") : null;
        var clusterNamesAt = placementFields != null ? placementFields.at("clusterNames") : spec.at();
        Application.Placement placement = placement(spec, placementFields);
        SyncPolicy sync = syncPolicy(spec).withIgnoreDifferences(ignoreDifferences(spec));
        List<String> dependsOn = spec.strings("dependsOn");
        boolean suspend = spec.bool("suspend", false);
        Application.Decryption decryption = decryption(spec);
        var sourceAt = source != null ? source.at("path") : spec.at();
        var dependsAt = spec.at("dependsOn");
        spec.end();
        if (meta == null || placement == null) return null;
        return new AppDeclaration(meta.name(), meta.labels(), sourcePath, sourceAt, namespace, placement, clusterNamesAt, sync,
                dependsOn, dependsAt, suspend, doc.value().get("spec"), doc.location(), meta.annotations(),
                new AppDeclaration.Rendering(helm, variants, allowEmpty, source != null ? source.at() : spec.at()), decryption);
    }

    /**
     * {@code spec.decryption}, as Flux's Kustomization writes it: {@code provider: sops} and {@code secretRef.name}, a Secret
     * of the engine's own namespace (a namespace is not written: the repo never names another one). Null when absent or wrong.
     */
    private static Application.Decryption decryption(Fields spec) {
        if (!spec.has("decryption")) return null;
        Fields d = spec.object("decryption");
        if (d == null) return null;
        String provider = d.requiredString("provider");
        if (provider != null && !provider.equals("sops")) {
            d.error("provider", "Application.spec.decryption.provider " + Excerpt.quoted(provider) + " is not one Windlass knows; write provider: sops");
        }
        Fields ref = d.object("secretRef");
        String name = null;
        var at = d.at();
        if (ref == null) {
            d.errorHere("Application.spec.decryption.secretRef is required: the name of the Secret, in the engine's namespace, holding the"
                    + " private keys (*.agekey, *.asc) this application's SOPS files are decrypted with");
        } else {
            name = ref.requiredString("name");
            at = ref.at("name");
            if (name != null && !DNS_SUBDOMAIN.matcher(name).matches()) {
                ref.error("name", "Application.spec.decryption.secretRef.name " + Excerpt.quoted(name)
                        + " is not a valid Secret name (lowercase letters, digits, '-' and '.')");
                name = null;
            }
            ref.end();
        }
        d.end();
        return name == null || (provider != null && !provider.equals("sops")) ? null : new Application.Decryption(name, at);
    }

    static String normalize(String p) {
        String s = p.replace('\\', '/');
        while (s.startsWith("./") || s.startsWith("/")) s = s.substring(s.startsWith("./") ? 2 : 1);
        while (s.endsWith("/")) s = s.substring(0, s.length() - 1);
        return s;
    }

    private static Application.Placement placement(Fields spec, Fields p) {
        if (p == null) {
            if (!spec.has("placement")) spec.errorHere("Application.spec.placement is required: give clusterSelector and/or clusterNames");
            return null;
        }
        LabelSelector selector = p.has("clusterSelector") ? SelectorReader.read(p, "clusterSelector") : null;
        List<String> names = p.strings("clusterNames");
        int max = p.integer("maxClusters", 0, 0);
        p.end();
        if (selector == null && names.isEmpty()) {
            p.errorHere("Application.spec.placement selects no cluster: give clusterSelector (use {} for every cluster) and/or clusterNames");
            return null;
        }
        return new Application.Placement(selector, names, max);
    }

    /**
     * {@code spec.ignoreDifferences}: per group and kind (optionally one name or namespace), JSON pointers and field
     * managers whose fields are neither drift nor reset. At least one of the two, and pointers that start with "/".
     */
    private static List<IgnoreDifferences> ignoreDifferences(Fields spec) {
        List<IgnoreDifferences> rules = new ArrayList<>();
        for (Fields r : spec.objects("ignoreDifferences")) {
            String group = r.string("group", "");
            String kind = r.requiredString("kind");
            String name = r.string("name", "");
            String namespace = r.string("namespace", "");
            List<String> pointers = r.strings("jsonPointers");
            List<String> managers = r.strings("managedFieldsManagers");
            for (String p : pointers) {
                if (!p.startsWith("/") || p.length() < 2) {
                    r.error("jsonPointers", "Application.spec.ignoreDifferences.jsonPointers: " + Excerpt.quoted(p
                           ) + " is not a JSON pointer; write it from the object's root, like /spec/replicas");
                }
            }
            if (pointers.isEmpty() && managers.isEmpty()) {
                r.errorHere("Application.spec.ignoreDifferences entry for " + (kind == null ? "?" : kind)
                        + " ignores nothing: give jsonPointers (like /spec/replicas) and/or managedFieldsManagers (like kube-controller-manager)");
            }
            r.end();
            if (kind != null) rules.add(new IgnoreDifferences(group, kind, name, namespace, pointers, managers));
        }
        return rules;
    }

    private static SyncPolicy syncPolicy(Fields spec) {
        Fields s = spec.object("syncPolicy");
        if (s == null) return SyncPolicy.DEFAULT;
        SyncPolicy d = SyncPolicy.DEFAULT;
        SyncPolicy result = new SyncPolicy(s.bool("prune", d.prune()), s.bool("selfHeal", d.selfHeal()),
                s.enumValue("applyStrategy", ApplyStrategy.class, d.applyStrategy()), s.bool("force", d.force()));
        s.end();
        return result;
    }
}
