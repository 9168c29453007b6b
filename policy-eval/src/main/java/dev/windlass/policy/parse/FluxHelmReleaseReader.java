package dev.windlass.policy.parse;

import dev.windlass.policy.diff.ContentHash;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.FluxBuild;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.model.RenderSpec;
import dev.windlass.policy.text.Excerpt;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Reads a Flux {@code helm.toolkit.fluxcd.io/v2} {@code HelmRelease}, as a Kustomization's build printed it, as a
 * Windlass application of its own: its chart rendered by Helm (from a {@code HelmRepository}, an {@code OCIRepository},
 * or a folder of this repo), with its values merged as Flux merges them. Every field is read through {@link Fields}:
 * one Windlass does not follow yet is an error that says what to do, and holds this release's application only; fields
 * that change only when Flux works ({@code interval}, {@code install.remediation}, ...) are accepted and named as ignored.
 */
final class FluxHelmReleaseReader {
    static final String API_GROUP = "helm.toolkit.fluxcd.io/";
    static final String API_VERSION = API_GROUP + "v2";
    /** The label that tells a HelmRelease's application from a Kustomization's of the same name. */
    static final String LABEL_KIND = dev.windlass.policy.model.FluxHealth.LABEL_KIND;

    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

    private static final Map<String, String> NOT_SUPPORTED = new LinkedHashMap<>();
    static {
        NOT_SUPPORTED.put("kubeConfig", "the cluster comes from Settings.spec.flux.clusters; remove it");
        NOT_SUPPORTED.put("serviceAccountName", "Windlass applies with the credentials of each Cluster's connection; remove it");
        NOT_SUPPORTED.put("postRenderers", "Windlass does not run post-renderers yet; render the chart with a Windlass Application whose"
                + " variants' overrides change what it renders, or keep this release on Flux for now");
        NOT_SUPPORTED.put("commonMetadata", "set the labels and annotations through the chart's values");
    }

    /** Fields accepted and ignored: they change when Flux works, not what it applies. */
    private static final Map<String, String> IGNORED = new LinkedHashMap<>();
    static {
        IGNORED.put("interval", "Windlass reconciles every Settings.spec.interval and on each push");
        IGNORED.put("timeout", "each cluster's writes have Windlass's own deadline");
        IGNORED.put("maxHistory", "Windlass keeps no Helm release history; its status branch records each revision");
        IGNORED.put("driftDetection", "Windlass always corrects drift of what it applies");
        IGNORED.put("test", "Windlass leaves a chart's test hooks out");
        IGNORED.put("rollback", "Windlass rolls back by its own RemediationPolicies");
        IGNORED.put("uninstall", "Windlass prunes by its own rules");
        IGNORED.put("storageNamespace", "Windlass stores no Helm release");
        IGNORED.put("persistentClient", "Windlass has its own clients");
    }
    /** Fields of install and upgrade that change only how Flux runs Helm. */
    private static final List<String> IGNORED_ACTION = List.of("remediation", "timeout", "strategy", "disableWait", "disableWaitForJobs",
            "createNamespace", "replace", "cleanupOnFail", "force", "preserveValues", "disableOpenAPIValidation", "disableSchemaValidation",
            "disableTakeOwnership", "serverSideApply", "disableHooks");

    enum Crds { Skip, Create, CreateReplace }

    private FluxHelmReleaseReader() {}

    /** What a release needs of the build it is in: its other objects, and where each object is written in the repo. */
    interface Build {
        /** The object of the build of that kind and name, or null. */
        Manifest find(String kind, String namespace, String name);

        /** The object as a YAML document, for {@link Fields}. */
        YamlDoc doc(Manifest m);

        /** Where the object's fields are written in the repo. */
        RenderedPlaces places(Manifest m);
    }

    /** A release's application, or null when it cannot be one (said in {@code out}, for the Kustomization that builds it). */
    static Application read(Manifest release, Application kustomization, String folderKey, Build build, List<Diagnostic> out) {
        YamlDoc doc = build.doc(release);
        RenderedPlaces places = build.places(release);
        List<Diagnostic> said = new ArrayList<>();
        Application app = read(doc, release, kustomization, folderKey, build, said);
        List<Diagnostic> located = new ArrayList<>(said.stream().map(d -> d.location().path().isEmpty() ? places.relocated(d, doc) : d).toList());
        located.sort(null);
        if (app == null) {
            out.addAll(located);
            return null;
        }
        // Where the chart and the release are written in the repo, for errors of its render.
        RenderSpec r = app.render();
        RenderSpec.Helm h = r.helm();
        RenderSpec.Helm helm = new RenderSpec.Helm(h.chartPath(), h.repoURL(), h.chart(), h.version(), h.releaseName(), h.values(),
                h.valuesFiles(), h.skipCrds(), places.at(doc, h.at()));
        RenderSpec render = new RenderSpec(r.kustomize(), helm, r.variants(), r.allowEmpty(), places.object(), r.flux());
        return new Application(app.name(), app.labels(), app.sourcePath(), app.namespace(), app.placement(), app.syncPolicy(), app.dependsOn(),
                app.suspend(), app.manifests(), app.revision(), located, app.location(), app.annotations(), render, app.variants());
    }

    private static Application read(YamlDoc doc, Manifest release, Application kustomization, String folderKey, Build build,
                                    List<Diagnostic> out) {
        Fields root = Fields.root(doc, "HelmRelease", out);
        root.has("apiVersion");
        root.has("kind");
        if (!doc.apiVersion().equals(API_VERSION)) {
            root.error("apiVersion", "apiVersion " + Excerpt.quoted(doc.apiVersion()) + " of HelmRelease is not supported; Windlass reads "
                    + API_VERSION + " (flux migrate rewrites older ones)");
        }
        Fields meta = root.object("metadata");
        Fields spec = root.object("spec");
        root.end();
        String name = release.ref().name();
        String namespace = release.ref().namespace();
        Map<String, String> labels = new TreeMap<>();
        Map<String, String> annotations = Map.of();
        if (meta != null) {
            meta.has("name");
            meta.has("namespace");
            labels.putAll(meta.stringMap("labels"));
            annotations = meta.stringMap("annotations");
            meta.end();
        }
        String appName = folderKey + "-" + name;
        if (!DNS_LABEL.matcher(appName).matches()) {
            (meta == null ? root : meta).error("name", "Flux HelmRelease " + Excerpt.quoted(name) + " becomes the application "
                    + Excerpt.quoted(appName) + " (its cluster folder's name, '-', its own), which is not a valid name: lowercase letters,"
                    + " digits and '-', at most 63 characters; rename it");
            return null;
        }
        if (spec == null) {
            root.errorHere("HelmRelease.spec is required, with chart or chartRef");
            return null;
        }
        FluxSpecScreen.refuse(spec, NOT_SUPPORTED);
        Map<String, String> ignoredHere = FluxSpecScreen.ignored(spec, IGNORED);
        List<String> ignored = new ArrayList<>(ignoredHere.values());
        String firstIgnored = ignoredHere.isEmpty() ? null : ignoredHere.keySet().iterator().next();
        String targetNamespace = spec.string("targetNamespace", null);
        if (targetNamespace != null && !DNS_LABEL.matcher(targetNamespace).matches()) {
            spec.error("targetNamespace", spec.name("targetNamespace") + " " + Excerpt.quoted(targetNamespace)
                    + " is not a valid namespace name (lowercase letters, digits, '-')");
            targetNamespace = null;
        }
        String releaseName = spec.string("releaseName", (targetNamespace == null ? "" : targetNamespace + "-") + name);
        if (releaseName.length() > 53) {
            spec.error(spec.has("releaseName") ? "releaseName" : "targetNamespace", "the release name " + Excerpt.quoted(releaseName)
                    + " is longer than Helm's 53 characters; Flux shortens it with a hash, Windlass does not yet: give a shorter spec.releaseName");
        }
        boolean suspend = spec.bool("suspend", false);
        Crds installCrds = crds(spec, "install", Crds.Create, ignored);
        Crds upgradeCrds = crds(spec, "upgrade", Crds.Skip, ignored);
        if (firstIgnored == null && !ignored.isEmpty()) firstIgnored = ignored.get(0).startsWith("install") ? "install" : "upgrade";
        FluxSpecScreen.warn(spec, "HelmRelease", firstIgnored, ignored);
        RenderSpec.Helm[] chart = {null};
        Map<String, String> sourceHashes = new TreeMap<>();
        if (spec.has("chart") && spec.has("chartRef")) {
            spec.error("chartRef", "HelmRelease.spec has both chart and chartRef; give one of them");
        } else if (spec.has("chartRef")) {
            chart[0] = chartRef(spec, namespace, build, sourceHashes, out);
        } else if (spec.has("chart")) {
            chart[0] = chartSpec(spec, namespace, build, sourceHashes, out);
        } else {
            spec.errorHere("HelmRelease.spec needs chart (chart.spec: chart, version, sourceRef) or chartRef (an OCIRepository)");
        }
        Map<String, Object> values = valuesFrom(spec, namespace, build, sourceHashes, out);
        if (spec.has("values")) {
            if (release.body().get("spec") instanceof Map<?, ?> s && s.get("values") instanceof Map<?, ?> v) {
                @SuppressWarnings("unchecked") Map<String, Object> inline = (Map<String, Object>) v;
                values = FluxHelmValues.merged(values, inline);
            } else {
                spec.error("values", spec.name("values") + " must be a mapping (key: value)");
            }
        }
        List<String> dependsOn = new ArrayList<>();
        dependsOn.add(kustomization.name());  // the release exists once its Kustomization applied it (and the namespace with it)
        for (Fields d : spec.objects("dependsOn")) {
            String dep = d.requiredString("name");
            String depNamespace = d.string("namespace", namespace);
            if (d.has("readyExpr")) d.error("readyExpr", d.name("readyExpr") + " is not supported by Windlass yet: a dependency is ready when it is Healthy; remove it");
            d.end();
            if (dep == null) continue;
            if (!depNamespace.equals(namespace)) {
                d.error("namespace", d.name("namespace") + " " + Excerpt.quoted(depNamespace) + " is not this HelmRelease's namespace "
                        + Excerpt.quoted(namespace) + "; Windlass reads dependencies between the HelmReleases of one namespace only, for now");
                continue;
            }
            if (!dependsOn.contains(folderKey + "-" + dep)) dependsOn.add(folderKey + "-" + dep);
        }
        spec.end();
        labels.put(FluxKustomizationReader.LABEL_NAME, name);
        labels.put(FluxKustomizationReader.LABEL_FOLDER, folderKey);
        labels.put(LABEL_KIND, "HelmRelease");
        String helmNamespace = targetNamespace == null ? namespace : targetNamespace;
        RenderSpec.Helm h = chart[0] == null ? new RenderSpec.Helm("", "", "", "", releaseName, "", List.of(), false, doc.location())
                : chart[0];
        String valuesText = values.isEmpty() ? "" : FluxHelmValues.dump(values);
        RenderSpec.Helm helm = new RenderSpec.Helm(h.chartPath(), h.repoURL(), h.chart(), h.version(), releaseName, valuesText, List.of(),
                installCrds == Crds.Skip, h.at());
        String revision = ContentHash.sha256(release.hash() + "\n" + ContentHash.of(values) + "\n" + sourceHashes).substring(0, 12);
        FluxBuild flux = new FluxBuild(Map.of(), Map.of(), kustomization.location(), upgradeCrds == Crds.Skip && installCrds != Crds.Skip,
                FluxBuild.From.FLUX, dev.windlass.policy.model.FluxHealth.NONE, kustomization.name());
        RenderSpec render = new RenderSpec(null, helm, List.of(), true, kustomization.location(), flux);
        Application.SyncPolicy sync = new Application.SyncPolicy(true, true, Application.ApplyStrategy.ServerSide, false);
        return new Application(appName, labels, kustomization.sourcePath(), helmNamespace, kustomization.placement(), sync, dependsOn,
                suspend || kustomization.suspend(), List.of(), revision, List.of(), kustomization.location(), annotations, render, Map.of());
    }

    private static Crds crds(Fields spec, String action, Crds fallback, List<String> ignored) {
        Fields f = spec.object(action);
        if (f == null) return fallback;
        Crds crds = f.enumValue("crds", Crds.class, fallback);
        if (f.has("skipCRDs")) f.error("skipCRDs", f.name("skipCRDs") + " is deprecated in Flux: write crds: Skip");
        for (String key : IGNORED_ACTION) {
            if (f.has(key)) ignored.add(action + "." + key + " (" + (key.equals("disableHooks")
                    ? "Windlass runs a chart's hooks in each sync, as resource hooks" : "it changes how Flux runs Helm, not what it applies") + ")");
        }
        f.end();
        return crds;
    }

    /** chart.spec: a chart from a HelmRepository by name and version, or a folder of this repo (the GitRepository flux-system). */
    private static RenderSpec.Helm chartSpec(Fields spec, String namespace, Build build, Map<String, String> hashes, List<Diagnostic> out) {
        Fields chart = spec.object("chart");
        if (chart == null) return null;
        Fields s = chart.object("spec");
        if (chart.has("metadata")) chart.object("metadata");  // the labels of Flux's HelmChart object: nothing is applied of it
        chart.end();
        if (s == null) {
            chart.errorHere(chart.name("spec") + " is required: chart, version and sourceRef");
            return null;
        }
        String name = s.requiredString("chart");
        String version = s.string("version", "*");
        s.has("interval");
        s.has("reconcileStrategy");
        s.has("ignoreMissingValuesFiles");
        if (s.has("valuesFiles")) s.error("valuesFiles", s.name("valuesFiles") + " is not supported by Windlass yet: write the values in spec.values");
        if (s.has("valuesFile")) s.error("valuesFile", s.name("valuesFile") + " is not supported by Windlass yet: write the values in spec.values");
        if (s.has("verify")) s.error("verify", s.name("verify") + " is not supported by Windlass yet: Windlass does not verify chart signatures; remove it");
        Fields ref = s.object("sourceRef");
        if (ref == null && !s.has("sourceRef")) s.errorHere(s.name("sourceRef") + " is required: a HelmRepository, or the GitRepository flux-system");
        String kind = ref == null ? null : ref.requiredString("kind");
        String refName = ref == null ? null : ref.requiredString("name");
        String refNamespace = ref == null ? namespace : ref.string("namespace", namespace);
        if (ref != null) {
            ref.string("apiVersion", null);
            ref.end();
        }
        s.end();
        if (name == null || kind == null || refName == null) return null;
        if (kind.equals("GitRepository")) {
            if (!refName.equals(FluxKustomizationReader.THIS_REPO) || !refNamespace.equals(FluxKustomizationReader.THIS_REPO)) {
                ref.errorHere(ref.name("kind") + " GitRepository " + refNamespace + "/" + refName + " is not supported yet: Windlass reads charts"
                        + " of this repo, whose source is the GitRepository flux-system/flux-system; bring the chart into this repo, or keep"
                        + " this release on Flux for now");
                return null;
            }
            String path = ApplicationReader.normalize(name);
            if (path.isEmpty() || path.equals(".") || path.equals("..") || path.startsWith("../") || path.startsWith("/") || path.contains("/../")) {
                s.error("chart", s.name("chart") + " " + Excerpt.quoted(name) + " must be a folder of the repo, from its root (./charts/web)");
                return null;
            }
            return new RenderSpec.Helm(path, "", "", "", "", "", List.of(), false, s.at("chart"));
        }
        if (!kind.equals("HelmRepository")) {
            ref.errorHere(s.name("sourceRef") + " " + kind + " is not supported yet: give a HelmRepository, or the GitRepository flux-system");
            return null;
        }
        Manifest repository = build.find("HelmRepository", refNamespace, refName);
        if (repository == null) {
            ref.errorHere(s.name("sourceRef") + " HelmRepository " + refNamespace + "/" + refName + " is not in what this HelmRelease's"
                    + " Kustomization builds; Windlass reads the HelmRepositories built with the release: add it to the same build");
            return null;
        }
        hashes.put("HelmRepository", repository.hash());
        String url = source(repository, build, out, (doc, said) -> FluxHelmSources.helmRepository(doc, said));
        if (url == null) {
            ref.errorHere(s.name("sourceRef") + " HelmRepository " + refNamespace + "/" + refName + " cannot be read: see its errors");
            return null;
        }
        return new RenderSpec.Helm("", url, name, version, "", "", List.of(), false, s.at("chart"));
    }

    /** chartRef: the chart an OCIRepository names. */
    private static RenderSpec.Helm chartRef(Fields spec, String namespace, Build build, Map<String, String> hashes, List<Diagnostic> out) {
        Fields ref = spec.object("chartRef");
        if (ref == null) return null;
        String kind = ref.requiredString("kind");
        String name = ref.requiredString("name");
        String refNamespace = ref.string("namespace", namespace);
        ref.string("apiVersion", null);
        ref.end();
        if (kind == null || name == null) return null;
        if (!kind.equals("OCIRepository")) {
            ref.error("kind", ref.name("kind") + " " + Excerpt.quoted(kind) + " is not supported yet: give an OCIRepository, or use chart.spec");
            return null;
        }
        Manifest repository = build.find("OCIRepository", refNamespace, name);
        if (repository == null) {
            ref.errorHere(ref.name("name") + ": OCIRepository " + refNamespace + "/" + name + " is not in what this HelmRelease's"
                    + " Kustomization builds; Windlass reads the OCIRepositories built with the release: add it to the same build");
            return null;
        }
        hashes.put("OCIRepository", repository.hash());
        FluxHelmSources.Chart chart = source(repository, build, out, FluxHelmSources::ociRepository);
        if (chart == null) {
            ref.errorHere(ref.name("name") + ": OCIRepository " + refNamespace + "/" + name + " cannot be read: see its errors");
            return null;
        }
        return new RenderSpec.Helm("", chart.repoURL(), chart.name(), chart.version(), "", "", List.of(), false, ref.at());
    }

    /** A source read from its document, its problems said where it is written. */
    private static <T> T source(Manifest source, Build build, List<Diagnostic> out, java.util.function.BiFunction<YamlDoc, List<Diagnostic>, T> reader) {
        YamlDoc doc = build.doc(source);
        RenderedPlaces places = build.places(source);
        List<Diagnostic> said = new ArrayList<>();
        T read = reader.apply(doc, said);
        said.forEach(d -> out.add(places.relocated(d, doc)));
        return said.stream().anyMatch(Diagnostic::isError) ? null : read;
    }

    /** The values of valuesFrom, merged in order; a Secret's values are never quoted in what is said. */
    private static Map<String, Object> valuesFrom(Fields spec, String namespace, Build build, Map<String, String> hashes, List<Diagnostic> out) {
        Map<String, Object> values = new LinkedHashMap<>();
        int i = 0;
        for (Fields f : spec.objects("valuesFrom")) {
            String kind = f.requiredString("kind");
            String name = f.requiredString("name");
            String key = f.string("valuesKey", "values.yaml");
            String targetPath = f.string("targetPath", null);
            boolean optional = f.bool("optional", false);
            f.end();
            i++;
            if (kind == null || name == null) continue;
            if (!kind.equals("ConfigMap") && !kind.equals("Secret")) {
                f.error("kind", f.name("kind") + " " + Excerpt.quoted(kind) + " is not one Flux reads; use ConfigMap or Secret");
                continue;
            }
            Manifest from = build.find(kind, namespace, name);
            String text = from == null ? null : data(from, key);
            if (text == null) {
                if (!optional) {
                    f.errorHere(f.name("name") + ": " + kind + " " + namespace + "/" + name + (from == null
                            ? " is not in what this HelmRelease's Kustomization builds; Windlass reads valuesFrom from the same build: add it there,"
                            : " has no key " + Excerpt.quoted(key) + ";") + " or say optional: true");
                }
                continue;
            }
            hashes.put("valuesFrom " + i, from.hash());
            String secretly = kind.equals("Secret") ? "the Secret's" : "its";
            if (targetPath != null) {
                Map<String, Object> set = FluxHelmValues.withPath(values, targetPath, text);
                if (set == null) f.error("targetPath", f.name("targetPath") + " " + Excerpt.quoted(targetPath) + " has an empty key; write a.b.c");
                else values = set;
                continue;
            }
            Object parsed;
            try {
                parsed = new org.yaml.snakeyaml.Yaml(new org.yaml.snakeyaml.constructor.SafeConstructor(YamlReader.options())).load(text);
            } catch (RuntimeException e) {
                f.errorHere(f.name("valuesKey") + ": " + secretly + " key " + Excerpt.quoted(key) + " is not YAML values (a mapping); fix it");
                continue;
            }
            if (parsed == null) continue;
            if (!(parsed instanceof Map<?, ?> m)) {
                f.errorHere(f.name("valuesKey") + ": " + secretly + " key " + Excerpt.quoted(key) + " is not YAML values (a mapping); fix it");
                continue;
            }
            @SuppressWarnings("unchecked") Map<String, Object> map = (Map<String, Object>) m;
            values = FluxHelmValues.merged(values, map);
        }
        return values;
    }

    /** The text at {@code key} of a ConfigMap's data, or of a Secret's stringData or (decoded) data; null when absent. */
    private static String data(Manifest m, String key) {
        if (m.ref().kind().equals("Secret") && m.body().get("stringData") instanceof Map<?, ?> sd && sd.get(key) instanceof String s) return s;
        if (!(m.body().get("data") instanceof Map<?, ?> data) || !(data.get(key) instanceof String s)) return null;
        if (!m.ref().kind().equals("Secret")) return s;
        try {
            return new String(Base64.getMimeDecoder().decode(s), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
