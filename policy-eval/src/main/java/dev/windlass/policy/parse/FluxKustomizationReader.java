package dev.windlass.policy.parse;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.FluxHealth;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.model.SourceLocation;
import dev.windlass.policy.text.Excerpt;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Reads a Flux {@code kustomize.toolkit.fluxcd.io/v1} {@code Kustomization} as a Windlass application: a Kustomize build
 * of its {@code path} in this repo, with what Flux writes into that build ({@link FluxRead}), placed on the clusters that
 * {@code Settings.spec.flux.clusters} maps its folder to. Every field is read through {@link Fields}: one Windlass does not
 * follow yet is an error at the field that says what to do, and holds this application only; fields that change nothing
 * that is applied ({@code interval}, ...) are accepted and named as ignored, in a warning.
 */
final class FluxKustomizationReader {
    static final String API_GROUP = "kustomize.toolkit.fluxcd.io/";
    static final String API_VERSION = API_GROUP + "v1";
    /** The name and namespace of the GitRepository a bootstrapped repo syncs itself from: this repo. */
    static final String THIS_REPO = "flux-system";
    /** Labels every imported application gets, for policies to select them by. */
    static final String LABEL_NAME = "flux.windlass.dev/name";
    static final String LABEL_FOLDER = "flux.windlass.dev/folder";

    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    private static final Pattern VAR_NAME = Pattern.compile("[_a-zA-Z][_a-zA-Z0-9]*");

    /** Fields of Flux's Kustomization that Windlass does not follow yet, and what to do about each. */
    private static final Map<String, String> NOT_SUPPORTED = new LinkedHashMap<>();
    static {
        NOT_SUPPORTED.put("healthCheckExprs", "Windlass judges health by its own rules for each kind; remove it");
        NOT_SUPPORTED.put("decryption", "Windlass decrypts no SOPS files a Kustomization builds; move encrypted Secrets to a Windlass"
                + " Application whose source is a folder of YAML (spec.decryption there, docs/secrets.md)");
        NOT_SUPPORTED.put("kubeConfig", "the cluster comes from Settings.spec.flux.clusters; remove it");
        NOT_SUPPORTED.put("serviceAccountName", "Windlass applies with the credentials of each Cluster's connection; remove it");
        NOT_SUPPORTED.put("commonMetadata", "write the labels and annotations in the kustomization of the path (labels:, commonAnnotations:)");
        NOT_SUPPORTED.put("deletionPolicy", "Windlass prunes by spec.prune and each object's windlass.dev/gc annotation; remove it");
        NOT_SUPPORTED.put("ignoreMissingComponents", "list only components that exist, and remove it");
        NOT_SUPPORTED.put("patchesStrategicMerge", "Flux v1 has no such field: write the patches under spec.patches");
        NOT_SUPPORTED.put("patchesJson6902", "Flux v1 has no such field: write the patches under spec.patches");
        NOT_SUPPORTED.put("buildMetadata", "remove it");
    }

    /** Fields accepted and ignored: they change when Flux works, not what it applies. */
    private static final Map<String, String> IGNORED = new LinkedHashMap<>();
    static {
        IGNORED.put("interval", "Windlass reconciles every Settings.spec.interval and on each push");
        IGNORED.put("retryInterval", "Windlass retries on its own backoff");
        IGNORED.put("timeout", "each cluster's writes have Windlass's own deadline");
    }

    private FluxKustomizationReader() {}

    /** Which clusters a folder's Flux objects are for: the folder, the key that names its applications, and the placement. */
    record Mapped(String folder, String key, Application.Placement placement, SourceLocation at) {}

    /**
     * The application, or null when it cannot be one (no name, no cluster for its folder); what is wrong is in {@code out},
     * and with an application, held by it.
     */
    static AppDeclaration read(YamlDoc doc, Mapped mapped, FluxArtifacts artifacts, List<Diagnostic> out) {
        Fields root = Fields.root(doc, "Kustomization", out);
        root.has("apiVersion");
        root.has("kind");
        if (!doc.apiVersion().equals(API_VERSION)) {
            root.error("apiVersion", "apiVersion " + Excerpt.quoted(doc.apiVersion()) + " of Kustomization is not supported; Windlass reads "
                    + API_VERSION + " (flux migrate rewrites older ones)");
        }
        Fields meta = root.object("metadata");
        if (meta == null) {
            root.errorHere("Kustomization.metadata is required, with at least a name");
            root.end();
            return null;
        }
        String name = meta.requiredString("name");
        String namespace = meta.string("namespace", THIS_REPO);
        Map<String, String> labels = new TreeMap<>(meta.stringMap("labels"));
        Map<String, String> annotations = meta.stringMap("annotations");
        meta.end();
        Fields spec = root.object("spec");
        root.end();
        if (name == null) return null;
        if (mapped == null) {
            out.add(Diagnostic.error(doc.location(), "Flux Kustomization " + Excerpt.quoted(name) + " is in a folder that no"
                    + " Settings.spec.flux.clusters entry maps to Windlass clusters, so Windlass does not know where to apply it;"
                    + " add one, such as '- path: clusters/{cluster}' for a folder per cluster"));
            return null;
        }
        String appName = mapped.key() + "-" + name;
        if (!DNS_LABEL.matcher(appName).matches()) {
            meta.error("name", "Flux Kustomization " + Excerpt.quoted(name) + " becomes the application " + Excerpt.quoted(appName)
                    + " (its cluster folder's name, '-', its own), which is not a valid name: lowercase letters, digits and '-',"
                    + " at most 63 characters; rename it");
            return null;
        }
        if (spec == null) {
            root.errorHere("Kustomization.spec is required, with at least sourceRef");
            return null;
        }
        FluxSpecScreen.refuse(spec, NOT_SUPPORTED);
        Map<String, String> ignored = FluxSpecScreen.ignored(spec, IGNORED);
        FluxSpecScreen.warn(spec, "Kustomization", ignored.isEmpty() ? null : ignored.keySet().iterator().next(), List.copyOf(ignored.values()));
        FluxArtifacts.Artifact[] artifact = {null};
        String sourceRoot = sourceRoot(spec, mapped, namespace, artifacts, artifact, out);
        String path = spec.string("path", "");
        String sourcePath = ApplicationReader.normalize(path);
        if (sourcePath.equals(".")) sourcePath = "";
        if (artifact[0] != null && artifact[0].root() != null && !artifact[0].holds(sourcePath)) {
            spec.error("path", spec.name("path") + " " + Excerpt.quoted(path) + " is not in the ExternalArtifact, whose copy rules make the"
                    + " folders " + String.join(", ", artifact[0].folders().stream().map(f -> f.isEmpty() ? "." : f + "/").toList())
                    + "; give one of them, or copy the folder into the artifact");
        }
        if (sourcePath.equals("..") || sourcePath.startsWith("../") || sourcePath.contains("/../")) {
            spec.error("path", spec.name("path") + " " + Excerpt.quoted(path) + " leaves its source; give a folder inside it");
        }
        if (sourceRoot != null && !sourceRoot.isEmpty()) sourcePath = sourcePath.isEmpty() ? sourceRoot : sourceRoot + "/" + sourcePath;
        boolean prune = spec.bool("prune", false);
        boolean force = spec.bool("force", false);
        boolean suspend = spec.bool("suspend", false);
        String targetNamespace = spec.string("targetNamespace", null);
        if (targetNamespace != null && !DNS_LABEL.matcher(targetNamespace).matches()) {
            spec.error("targetNamespace", spec.name("targetNamespace") + " " + Excerpt.quoted(targetNamespace)
                    + " is not a valid namespace name (lowercase letters, digits, '-')");
            targetNamespace = null;
        }
        String namePrefix = spec.string("namePrefix", null);
        String nameSuffix = spec.string("nameSuffix", null);
        List<Map<String, Object>> patches = patches(spec);
        List<Map<String, Object>> images = images(spec);
        List<String> components = spec.strings("components");
        for (String c : components) {
            if (c.startsWith("/") || c.contains("://") || c.startsWith("git@")) {
                spec.error("components", spec.name("components") + " " + Excerpt.quoted(c) + " must be a local relative path, as in Flux");
            }
        }
        List<String> dependsOn = new ArrayList<>();
        for (Fields d : spec.objects("dependsOn")) {
            String dep = d.requiredString("name");
            String depNamespace = d.string("namespace", namespace);
            if (d.has("readyExpr")) d.error("readyExpr", d.name("readyExpr") + " is not supported by Windlass yet: a dependency is ready when it is Healthy; remove it");
            d.end();
            if (dep == null) continue;
            if (!depNamespace.equals(namespace)) {
                d.error("namespace", d.name("namespace") + " " + Excerpt.quoted(depNamespace) + " is not this Kustomization's namespace "
                        + Excerpt.quoted(namespace) + "; Windlass reads dependencies between the Kustomizations of one namespace only, for now");
                continue;
            }
            dependsOn.add(mapped.key() + "-" + dep);
        }
        Map<String, String> substitute = new TreeMap<>();
        List<FluxRead.SubstituteFrom> substituteFrom = new ArrayList<>();
        Fields postBuild = spec.object("postBuild");
        if (postBuild != null) {
            substitute.putAll(postBuild.stringMap("substitute"));
            for (String var : substitute.keySet()) {
                if (!VAR_NAME.matcher(var).matches()) {
                    postBuild.error("substitute", postBuild.name("substitute") + "." + Excerpt.quoted(var) + " is not a valid variable name:"
                            + " letters, digits and '_', not starting with a digit (as Flux requires)");
                }
            }
            for (Fields s : postBuild.objects("substituteFrom")) {
                FluxRead.SubstituteFrom.Kind kind = s.enumValue("kind", FluxRead.SubstituteFrom.Kind.class, null);
                if (!s.has("kind")) s.errorHere(s.name("kind") + " is required: ConfigMap or Secret");
                String from = s.requiredString("name");
                boolean optional = s.bool("optional", false);
                s.end();
                if (kind != null && from != null) substituteFrom.add(new FluxRead.SubstituteFrom(kind, from, optional, s.at()));
            }
            postBuild.end();
        }
        FluxHealth health = new FluxHealth(spec.bool("wait", false), healthChecks(spec, name, namespace, mapped.key()));
        var sourcePathAt = spec.has("path") ? spec.at("path") : spec.at();
        var dependsAt = spec.at("dependsOn");
        spec.end();
        labels.put(LABEL_NAME, name);
        labels.put(LABEL_FOLDER, mapped.key());
        FluxRead flux = new FluxRead(mapped.folder(), namespace, targetNamespace, namePrefix, nameSuffix, patches, images, components,
                substitute, substituteFrom, doc.location(), health);
        Application.SyncPolicy sync = new Application.SyncPolicy(prune, true, Application.ApplyStrategy.ServerSide, force);
        return new AppDeclaration(appName, labels, sourcePath, sourcePathAt, targetNamespace == null ? "default" : targetNamespace,
                mapped.placement(), mapped.at(), sync, dependsOn, dependsAt, suspend, doc.value().get("spec"), doc.location(), annotations,
                new AppDeclaration.Rendering(null, List.of(), true, spec.at(), flux));
    }

    /**
     * The folder of the repo that {@code sourceRef} is ("" for the repo's root), or null when it is not one Windlass reads
     * (said at the sourceRef).
     */
    private static String sourceRoot(Fields spec, Mapped mapped, String namespace, FluxArtifacts artifacts, FluxArtifacts.Artifact[] found,
                                     List<Diagnostic> out) {
        Fields ref = spec.object("sourceRef");
        if (ref == null) {
            if (!spec.has("sourceRef")) spec.errorHere(spec.name("sourceRef") + " is required: the GitRepository flux-system (this repo)");
            return null;
        }
        String kind = ref.requiredString("kind");
        String name = ref.requiredString("name");
        String refNamespace = ref.string("namespace", namespace);
        ref.string("apiVersion", null);
        ref.end();
        if (kind == null || name == null) return null;
        if (kind.equals("GitRepository")) {
            if (name.equals(THIS_REPO) && refNamespace.equals(THIS_REPO)) return "";
            ref.errorHere("Kustomization.spec.sourceRef GitRepository " + refNamespace + "/" + name + " is not supported yet: Windlass reads Kustomizations of this repo, whose source is the"
                    + " GitRepository flux-system/flux-system of a bootstrapped repo; bring the other repo's files into this one, or keep"
                    + " this Kustomization on Flux for now");
            return null;
        }
        if (kind.equals("ExternalArtifact")) {
            FluxArtifacts.Artifact artifact = artifacts.find(mapped.folder(), refNamespace, name);
            found[0] = artifact;
            if (artifact == null) {
                ref.errorHere("Kustomization.spec.sourceRef ExternalArtifact " + refNamespace + "/" + name + ": no ArtifactGenerator in "
                        + (mapped.folder().isEmpty() ? "the repo's root" : mapped.folder() + "/") + " makes an artifact of that name;"
                        + " Windlass reads ExternalArtifacts made by an ArtifactGenerator of the same cluster folder");
                return null;
            }
            if (artifact.root() == null) {
                out.addAll(artifact.problems());
                ref.errorHere("Kustomization.spec.sourceRef ExternalArtifact " + refNamespace + "/" + name + " cannot be read: see the"
                        + " errors of its ArtifactGenerator");
                return null;
            }
            out.addAll(artifact.problems());
            return artifact.root();
        }
        ref.errorHere("Kustomization.spec.sourceRef " + kind + " " + refNamespace + "/" + name + " is not supported yet: Windlass reads"
                + " Kustomizations whose source is this repo (the GitRepository flux-system, or an ExternalArtifact an ArtifactGenerator"
                + " copies from it)");
        return null;
    }

    /**
     * {@code spec.healthChecks}: a HelmRelease or Kustomization entry as the application made from it (named as the reader
     * names them, {@code <folder>-<name>}), any other kind as the object on the cluster. Whether each names something
     * Windlass knows is checked once every application is rendered ({@code dev.windlass.policy.flux.HealthChecks}).
     */
    private static List<FluxHealth.Check> healthChecks(Fields spec, String name, String namespace, String folderKey) {
        List<FluxHealth.Check> checks = new ArrayList<>();
        for (Fields c : spec.objects("healthChecks")) {
            String apiVersion = c.requiredString("apiVersion");
            String kind = c.requiredString("kind");
            String object = c.requiredString("name");
            String objectNamespace = c.string("namespace", namespace);
            c.end();
            if (apiVersion == null || kind == null || object == null) continue;
            String group = ObjectRef.groupOf(apiVersion);
            boolean release = group.equals("helm.toolkit.fluxcd.io") && kind.equals("HelmRelease");
            boolean kustomization = group.equals("kustomize.toolkit.fluxcd.io") && kind.equals("Kustomization");
            if (kustomization && object.equals(name) && objectNamespace.equals(namespace)) {
                c.errorHere(c.name("name") + " names this Kustomization itself; name another object, or remove the entry");
                continue;
            }
            if (release || kustomization) checks.add(new FluxHealth.OfApp(folderKey + "-" + object, kind, c.at()));
            else checks.add(new FluxHealth.OfObject(new ObjectRef(group, kind, objectNamespace, object), c.at()));
        }
        return checks;
    }

    private static List<Map<String, Object>> patches(Fields spec) {
        List<Map<String, Object>> patches = new ArrayList<>();
        for (Fields p : spec.objects("patches")) {
            String text = p.requiredString("patch");
            Map<String, Object> target = new LinkedHashMap<>();
            Fields t = p.object("target");
            if (t != null) {
                for (String key : List.of("group", "version", "kind", "name", "namespace", "labelSelector", "annotationSelector")) {
                    String v = t.string(key, null);
                    if (v != null) target.put(key, v);
                }
                t.end();
            }
            p.end();
            if (text == null) continue;
            Map<String, Object> patch = new LinkedHashMap<>();
            patch.put("patch", text);
            if (!target.isEmpty()) patch.put("target", target);
            patches.add(patch);
        }
        return patches;
    }

    private static List<Map<String, Object>> images(Fields spec) {
        List<Map<String, Object>> images = new ArrayList<>();
        for (Fields i : spec.objects("images")) {
            Map<String, Object> image = new LinkedHashMap<>();
            String name = i.requiredString("name");
            for (String key : List.of("newName", "newTag", "digest")) {
                String v = i.string(key, null);
                if (v != null) image.put(key, v);
            }
            i.end();
            if (name == null) continue;
            Map<String, Object> ordered = new LinkedHashMap<>();
            ordered.put("name", name);
            ordered.putAll(image);
            images.add(ordered);
        }
        return images;
    }
}
