package dev.windlass.policy.parse;

import dev.windlass.policy.text.Excerpt;
import dev.windlass.policy.model.LabelSelector;
import dev.windlass.policy.model.RenderSpec;
import dev.windlass.policy.model.RenderSpec.Overrides;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads what makes an application rendered: {@code spec.source.helm} (a chart and its values) and {@code spec.variants}
 * (what clusters chosen by a selector render instead). Whether {@code spec.source.path} is a Kustomize folder depends on
 * the files in it, so {@link AppAssembly} decides that.
 */
final class RenderSpecReader {
    private static final Pattern NAME = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

    private RenderSpecReader() {}

    /** {@code spec.source.helm}, or null when absent. */
    static RenderSpec.Helm helm(Fields source, String app) {
        Fields h = source == null ? null : source.object("helm");
        if (h == null) return null;
        String chart = h.requiredString("chart");
        String repoURL = h.string("repoURL", "");
        String version = h.string("version", "");
        String releaseName = h.string("releaseName", app == null ? "" : app);
        String values = h.mappingText("values");
        List<String> valuesFiles = h.strings("valuesFiles").stream().map(ApplicationReader::normalize).toList();
        boolean skipCrds = h.bool("skipCrds", false);
        if (!repoURL.isEmpty()) {
            if (!(repoURL.startsWith("https://") || repoURL.startsWith("http://") || repoURL.startsWith("oci://"))) {
                h.error("repoURL", "Application.spec.source.helm.repoURL must start with https://, http:// or oci://");
            }
            if (version.isEmpty()) {
                h.errorHere("Application.spec.source.helm.version is required with repoURL: pin the chart version (like 6.5.4)");
            }
        } else if (!version.isEmpty()) {
            h.error("version", "Application.spec.source.helm.version is for a chart from repoURL; a chart in the repo is the version in Git");
        }
        if (!releaseName.isEmpty() && !NAME.matcher(releaseName).matches()) {
            h.error("releaseName", "Application.spec.source.helm.releaseName " + Excerpt.quoted(releaseName
                   ) + " is not a valid release name (lowercase letters, digits, '-', at most 53 characters)");
        }
        var at = h.at();
        h.end();
        if (chart == null) return null;
        return repoURL.isEmpty()
                ? new RenderSpec.Helm(ApplicationReader.normalize(chart), "", "", "", releaseName, values, valuesFiles, skipCrds, at)
                : new RenderSpec.Helm("", repoURL, chart, version, releaseName, values, valuesFiles, skipCrds, at);
    }

    /** {@code spec.variants}, in order: the first whose selector matches a cluster is the one it gets. */
    static List<RenderSpec.VariantSpec> variants(Fields spec) {
        List<RenderSpec.VariantSpec> out = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (Fields v : spec.objects("variants")) {
            String name = v.requiredString("name");
            if (name != null && !NAME.matcher(name).matches()) {
                v.error("name", "Application.spec.variants name " + Excerpt.quoted(name) + " must be lowercase letters, digits and '-'");
            } else if (name != null && !names.add(name)) {
                v.error("name", "Application.spec.variants: a second variant named " + Excerpt.quoted(name) + "; names must differ");
            }
            LabelSelector selector = v.has("clusterSelector") ? SelectorReader.read(v, "clusterSelector") : null;
            if (selector == null) v.errorHere("Application.spec.variants " + Excerpt.quoted(name) + " needs a clusterSelector ({} for every cluster)");
            String path = v.has("path") ? ApplicationReader.normalize(v.string("path", "")) : null;
            String values = v.mappingText("values");
            List<String> valuesFiles = v.strings("valuesFiles").stream().map(ApplicationReader::normalize).toList();
            Overrides overrides = overrides(v.object("overrides"));
            var at = v.at();
            v.end();
            if (name != null && selector != null) {
                out.add(new RenderSpec.VariantSpec(name, selector, path, values, valuesFiles, overrides, at));
            }
        }
        return out;
    }

    private static Overrides overrides(Fields o) {
        if (o == null) return Overrides.NONE;
        List<Overrides.Image> images = new ArrayList<>();
        for (Fields i : o.objects("images")) {
            String name = i.requiredString("name");
            String newName = i.string("newName", "");
            String newTag = i.string("newTag", "");
            if (newName.isEmpty() && newTag.isEmpty()) i.errorHere("an image override needs newName, newTag or both");
            i.end();
            if (name != null) images.add(new Overrides.Image(name, newName, newTag));
        }
        List<Overrides.Replicas> replicas = new ArrayList<>();
        for (Fields r : o.objects("replicas")) {
            String kind = r.string("kind", "Deployment");
            String name = r.requiredString("name");
            int count = r.integer("count", -1, 0);
            if (count < 0) r.errorHere("a replicas override needs count (0 or more)");
            r.end();
            if (name != null && count >= 0) replicas.add(new Overrides.Replicas(kind, name, count));
        }
        List<Overrides.JsonPatch> patches = new ArrayList<>();
        for (Fields p : o.objects("jsonPatches")) {
            Fields target = p.object("target");
            String kind = target == null ? null : target.requiredString("kind");
            String name = target == null ? null : target.requiredString("name");
            if (target != null) target.end();
            else p.errorHere("a JSON patch override needs target: {kind, name}");
            String ops = p.sequenceText("patch");
            if (ops.isEmpty()) p.errorHere("a JSON patch override needs patch: a list of operations (op, path, value)");
            p.end();
            if (kind != null && name != null && !ops.isEmpty()) patches.add(new Overrides.JsonPatch(kind, name, ops));
        }
        o.end();
        return new Overrides(images, replicas, patches);
    }
}
