package dev.windlass.policy.parse;

import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.text.Excerpt;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Flux sources a HelmRelease's chart comes from, as a Kustomization's build printed them: a {@code HelmRepository}
 * (an HTTP(S) chart repository, or {@code type: oci} for an OCI registry) and an {@code OCIRepository} (one chart in an
 * OCI registry). Each is read strictly; what changes only when Flux fetches is accepted and ignored, credentials and
 * verification are errors, since Windlass fetches charts with none.
 */
final class FluxHelmSources {
    static final String API_GROUP = "source.toolkit.fluxcd.io/";
    /** The media type of a Helm chart's layer in an OCI artifact: what Helm renders. */
    static final String CHART_LAYER = "application/vnd.cncf.helm.chart.content.v1.tar+gzip";

    private FluxHelmSources() {}

    /** Where a chart comes from: a repository URL (HTTP(S), or oci:// without the chart's name) and a version. */
    record Chart(String repoURL, String name, String version) {}

    private static final Map<String, String> NOT_SUPPORTED = new LinkedHashMap<>();
    static {
        NOT_SUPPORTED.put("secretRef", "Windlass fetches charts without credentials, from public repositories; keep this release on Flux for now");
        NOT_SUPPORTED.put("certSecretRef", "Windlass checks the repository's certificate against the engine's trusted ones; remove it");
        NOT_SUPPORTED.put("proxySecretRef", "Windlass fetches charts directly; remove it");
        NOT_SUPPORTED.put("insecure", "Windlass fetches over HTTPS or plain HTTP as the URL says, never skipping TLS checks; remove it");
        NOT_SUPPORTED.put("verify", "Windlass does not verify chart signatures yet; remove it, or keep this release on Flux for now");
        NOT_SUPPORTED.put("serviceAccountName", "Windlass fetches charts without credentials; remove it");
        NOT_SUPPORTED.put("ignore", "remove it: a chart is read whole");
    }
    private static final List<String> IGNORED = List.of("interval", "timeout", "suspend", "accessFrom", "passCredentials");

    /** A HelmRepository's URL, or null when it cannot be read (said in {@code out}). */
    static String helmRepository(YamlDoc doc, List<Diagnostic> out) {
        Fields spec = spec(doc, "HelmRepository", out);
        if (spec == null) return null;
        String url = spec.requiredString("url");
        String type = spec.string("type", "default");
        if (!type.equals("default") && !type.equals("oci")) {
            spec.error("type", spec.name("type") + " is " + Excerpt.quoted(type) + "; use default (an HTTP(S) chart repository) or oci");
        }
        spec.end();
        if (url == null) return null;
        boolean oci = url.startsWith("oci://");
        if (type.equals("oci") != oci) {
            spec.error("url", spec.name("url") + " " + Excerpt.quoted(url) + (oci ? " is an oci:// URL: say type: oci"
                    : " must start with oci:// for type: oci"));
            return null;
        }
        if (!oci && !url.startsWith("https://") && !url.startsWith("http://")) {
            spec.error("url", spec.name("url") + " " + Excerpt.quoted(url) + " is not an http(s):// or oci:// URL");
            return null;
        }
        return url;
    }

    /** An OCIRepository's chart (URL split at its last segment, and the tag or semver range), or null (said in {@code out}). */
    static Chart ociRepository(YamlDoc doc, List<Diagnostic> out) {
        Fields spec = spec(doc, "OCIRepository", out);
        if (spec == null) return null;
        String url = spec.requiredString("url");
        Fields layer = spec.object("layerSelector");
        if (layer != null) {
            String mediaType = layer.string("mediaType", CHART_LAYER);
            if (!mediaType.equals(CHART_LAYER)) {
                layer.error("mediaType", layer.name("mediaType") + " " + Excerpt.quoted(mediaType) + " is not a chart: Helm renders the"
                        + " layer " + CHART_LAYER + "; remove layerSelector, or keep this release on Flux for now");
            }
            layer.string("operation", null);
            layer.end();
        }
        String version = null;
        Fields ref = spec.object("ref");
        if (ref != null) {
            String tag = ref.string("tag", null);
            String semver = ref.string("semver", null);
            ref.string("semverFilter", null);
            if (ref.has("digest")) {
                ref.error("digest", ref.name("digest") + " is not supported by Windlass yet: Helm renders a chart by its version;"
                        + " pin it with ref.tag (or ref.semver)");
            }
            version = semver != null ? semver : tag;
            ref.end();
        }
        spec.end();
        if (url == null) return null;
        if (!url.startsWith("oci://") || url.replaceAll("/+$", "").lastIndexOf('/') < "oci://".length()) {
            spec.error("url", spec.name("url") + " " + Excerpt.quoted(url) + " must be an oci:// URL naming the chart (oci://registry/path/chart)");
            return null;
        }
        if (version == null) {
            if (!spec.has("ref") || ref != null && !ref.has("digest")) {
                spec.errorHere(spec.name("ref") + " is required: give ref.tag (the chart's version) or ref.semver (a range); Flux's"
                        + " default, the tag latest, is no chart version Helm renders");
            }
            return null;
        }
        String trimmed = url.replaceAll("/+$", "");
        int slash = trimmed.lastIndexOf('/');
        return new Chart(trimmed.substring(0, slash), trimmed.substring(slash + 1), version);
    }

    private static Fields spec(YamlDoc doc, String kind, List<Diagnostic> out) {
        Fields root = Fields.root(doc, kind, out);
        root.has("apiVersion");
        root.has("kind");
        root.has("metadata");
        Fields spec = root.object("spec");
        root.end();
        if (spec == null) {
            root.errorHere(kind + ".spec is required");
            return null;
        }
        for (var e : NOT_SUPPORTED.entrySet()) {
            if (spec.has(e.getKey())) spec.error(e.getKey(), spec.name(e.getKey()) + " is not supported by Windlass yet: " + e.getValue());
        }
        String provider = spec.string("provider", "generic");
        if (!provider.equals("generic")) {
            spec.error("provider", spec.name("provider") + " " + Excerpt.quoted(provider) + " is not supported by Windlass yet: it fetches"
                    + " charts without a cloud's credentials; use a public repository, or keep this release on Flux for now");
        }
        IGNORED.forEach(spec::has);
        return spec;
    }
}
