package dev.windlass.policy.parse;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.ArgoSettings;
import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.IgnoreDifferences;
import dev.windlass.policy.model.RenderSpec;
import dev.windlass.policy.model.SourceLocation;
import dev.windlass.policy.source.KustomizeReach;
import dev.windlass.policy.text.Excerpt;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.representer.Representer;

/**
 * Reads an Argo CD {@code argoproj.io/v1alpha1} {@code Application} as a Windlass application: its {@code spec.source} of
 * this repo (a plain directory, a Kustomize folder or a Helm chart, as Argo CD tells them apart by the files of the path;
 * or a chart from a chart repository), or its {@code spec.sources} (a chart with value files of this repo through a
 * source's {@code ref}, or several plain directories as one application), placed on the Windlass {@code Cluster} its
 * {@code destination} names. Every field is
 * read through {@link Fields}: one Windlass does not follow yet is an error at the field that says what to do, and holds
 * this application only; fields that change nothing that is applied ({@code project}, {@code info}, ...) are accepted and
 * named as ignored, in one warning.
 */
final class ArgoApplicationReader {
    static final String API_GROUP = "argoproj.io/";
    static final String API_VERSION = API_GROUP + "v1alpha1";
    /** Labels every imported application gets, for policies to select them by. */
    static final String LABEL_NAME = "argocd.windlass.dev/name";
    static final String LABEL_PARENT = "argocd.windlass.dev/parent";
    /** The annotation of a Windlass Cluster that says which Argo CD {@code destination.server} it is. */
    static final String SERVER_ANNOTATION = "argocd.windlass.dev/server";

    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    private static final Pattern RELEASE = Pattern.compile("[a-z0-9]([-a-z0-9]{0,51}[a-z0-9])?");
    /** A ref as Argo CD takes it in {@code $ref/...} value files: letters, digits, '-' and '_'. */
    private static final Pattern REF = Pattern.compile("[A-Za-z0-9_-]+");
    /** At most this many sources in one Application's {@code spec.sources}. */
    static final int MAX_SOURCES = 20;
    private static final Pattern PARAMETER = Pattern.compile("[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*");

    private static final Map<String, String> SPEC_NOT_SUPPORTED = new LinkedHashMap<>();
    private static final Map<String, String> SPEC_IGNORED = new LinkedHashMap<>();
    private static final Map<String, String> SOURCE_NOT_SUPPORTED = new LinkedHashMap<>();
    private static final Map<String, String> KUSTOMIZE_NOT_SUPPORTED = new LinkedHashMap<>();
    private static final Map<String, String> HELM_NOT_SUPPORTED = new LinkedHashMap<>();
    private static final Map<String, String> HELM_IGNORED = new LinkedHashMap<>();
    /** syncOptions that change how Argo CD syncs, not what is applied; each with why Windlass needs none. */
    private static final Map<String, String> SYNC_OPTIONS_IGNORED = new LinkedHashMap<>();
    static {
        SPEC_NOT_SUPPORTED.put("sourceHydrator", "Windlass renders the source itself; give spec.source");
        SPEC_NOT_SUPPORTED.put("operation", "remove it: it is written by Argo CD, not by people");
        SPEC_IGNORED.put("project", "Windlass has no Argo CD projects; Cluster placement and policies decide what goes where");
        SPEC_IGNORED.put("info", "shown by Argo CD only");
        SPEC_IGNORED.put("revisionHistoryLimit", "the status branch is the history");

        SOURCE_NOT_SUPPORTED.put("plugin", "Windlass runs no config management plugins; render with kustomize or helm, or keep this Application on Argo CD");

        KUSTOMIZE_NOT_SUPPORTED.put("version", "Windlass builds with its own pinned kustomize; remove it");
        KUSTOMIZE_NOT_SUPPORTED.put("forceCommonLabels", "write the labels in the kustomization of the path");
        KUSTOMIZE_NOT_SUPPORTED.put("forceCommonAnnotations", "write the annotations in the kustomization of the path");
        KUSTOMIZE_NOT_SUPPORTED.put("commonAnnotationsEnvsubst", "write the annotations out");
        KUSTOMIZE_NOT_SUPPORTED.put("labelWithoutSelector", "write the labels in the kustomization of the path (labels:)");
        KUSTOMIZE_NOT_SUPPORTED.put("labelIncludeTemplates", "write the labels in the kustomization of the path (labels:)");
        KUSTOMIZE_NOT_SUPPORTED.put("replicas", "write them in the kustomization of the path (replicas:)");
        KUSTOMIZE_NOT_SUPPORTED.put("patches", "write them in the kustomization of the path (patches:)");
        KUSTOMIZE_NOT_SUPPORTED.put("components", "write them in the kustomization of the path (components:)");
        KUSTOMIZE_NOT_SUPPORTED.put("kubeVersion", "Windlass renders for each cluster's own version; remove it");
        KUSTOMIZE_NOT_SUPPORTED.put("apiVersions", "Windlass renders for each cluster's own API versions; remove it");
        KUSTOMIZE_NOT_SUPPORTED.put("ignoreMissingComponents", "list only components that exist, and remove it");

        HELM_NOT_SUPPORTED.put("fileParameters", "write the values in valuesObject or a values file of the chart's folder");
        HELM_NOT_SUPPORTED.put("namespace", "Helm renders for destination.namespace; remove it");
        HELM_NOT_SUPPORTED.put("kubeVersion", "Windlass renders for each cluster's own version; remove it");
        HELM_NOT_SUPPORTED.put("apiVersions", "Windlass renders for each cluster's own API versions; remove it");
        HELM_IGNORED.put("passCredentials", "Windlass uses no chart repository credentials");
        HELM_IGNORED.put("skipTests", "Windlass leaves test hooks out always");
        HELM_IGNORED.put("skipSchemaValidation", "helm template validates values as it does for every chart");
        HELM_IGNORED.put("version", "Windlass renders with Helm 3");

        SYNC_OPTIONS_IGNORED.put("CreateNamespace", "Windlass creates the application's namespace when absent");
        SYNC_OPTIONS_IGNORED.put("Validate", "the API server validates what Windlass applies");
        SYNC_OPTIONS_IGNORED.put("PruneLast", "Windlass prunes after it applies");
        SYNC_OPTIONS_IGNORED.put("ApplyOutOfSyncOnly", "Windlass writes only what differs");
        SYNC_OPTIONS_IGNORED.put("RespectIgnoreDifferences", "Windlass never resets fields of spec.ignoreDifferences");
        SYNC_OPTIONS_IGNORED.put("PrunePropagationPolicy", "Windlass deletes with its own propagation");
        SYNC_OPTIONS_IGNORED.put("FailOnSharedResource", "Windlass refuses an object two applications declare");
        SYNC_OPTIONS_IGNORED.put("SkipDryRunOnMissingResource", "Windlass applies CRDs before what uses them");
    }

    /**
     * What Argo CD objects are read against: the repo's settings and Clusters, its files (path to content id), how to read
     * one, and how an ApplicationSet's goTemplate is rendered.
     */
    record Context(ArgoSettings settings, SortedMap<String, Cluster> clusters, SortedMap<String, String> files,
            java.util.function.Function<String, byte[]> read, GoTemplates goTemplates) {}

    private ArgoApplicationReader() {}

    /** The name a Windlass application gets for the Argo CD Application {@code name}: its dots made dashes. */
    static String appName(String name) { return name.replace('.', '-'); }

    /**
     * The application, or null when it cannot be one (no name, or a name that makes no Windlass name); what is wrong is
     * in {@code out}, and with an application, held by it.
     */
    static AppDeclaration read(YamlDoc doc, Context ctx, List<Diagnostic> out) {
        Fields root = Fields.root(doc, "Application", out);
        root.has("apiVersion");
        root.has("kind");
        root.has("status");  // written by Argo CD; never read
        if (!doc.apiVersion().equals(API_VERSION)) {
            root.error("apiVersion", "apiVersion " + Excerpt.quoted(doc.apiVersion()) + " of Application is not supported; Windlass reads " + API_VERSION);
        }
        Fields meta = root.object("metadata");
        if (meta == null) {
            root.errorHere("Application.metadata is required, with at least a name");
            root.end();
            return null;
        }
        String name = meta.requiredString("name");
        meta.string("namespace", null);  // the namespace of Argo CD's own objects: nothing is applied there
        meta.strings("finalizers");      // Windlass prunes by spec.syncPolicy.automated.prune
        Map<String, String> labels = new TreeMap<>(meta.stringMap("labels"));
        Map<String, String> annotations = meta.stringMap("annotations");
        meta.end();
        Fields spec = root.object("spec");
        root.end();
        if (name == null) return null;
        String appName = appName(name);
        if (!DNS_LABEL.matcher(appName).matches()) {
            meta.error("name", "Argo CD Application " + Excerpt.quoted(name) + " becomes the application " + Excerpt.quoted(appName)
                    + " (its name, with dots made dashes), which is not a valid name: lowercase letters, digits and '-', at most 63"
                    + " characters; rename it");
            return null;
        }
        if (spec == null) {
            root.errorHere("Application.spec is required, with at least source and destination");
            return null;
        }
        List<String> ignored = new ArrayList<>();
        String firstIgnored = null;
        FluxSpecScreen.refuse(spec, SPEC_NOT_SUPPORTED);
        Map<String, String> specIgnored = FluxSpecScreen.ignored(spec, SPEC_IGNORED);
        ignored.addAll(specIgnored.values());
        if (!specIgnored.isEmpty()) firstIgnored = specIgnored.keySet().iterator().next();

        Destination destination = destination(spec, ctx);
        String namespace = destination == null ? "default" : destination.namespace();

        // syncPolicy
        Fields sync = spec.object("syncPolicy");
        Fields automated = sync == null ? null : sync.object("automated");
        boolean prune = false;
        boolean selfHeal = false;
        boolean allowEmpty = false;
        boolean enabled = automated != null;
        Application.ApplyStrategy strategy = Application.ApplyStrategy.ClientSide;
        boolean force = false;
        if (automated != null) {
            prune = automated.bool("prune", false);
            selfHeal = automated.bool("selfHeal", false);
            allowEmpty = automated.bool("allowEmpty", false);
            enabled = automated.bool("enabled", true);
            automated.end();
        }
        if (sync != null) {
            for (String option : sync.strings("syncOptions")) {
                int eq = option.indexOf('=');
                String key = eq < 0 ? option : option.substring(0, eq);
                String value = eq < 0 ? "" : option.substring(eq + 1);
                if (key.equals("ServerSideApply")) {
                    if (value.equals("true")) strategy = Application.ApplyStrategy.ServerSide;
                } else if (key.equals("Replace") && value.equals("true")) {
                    sync.error("syncOptions", "Application.spec.syncPolicy.syncOptions Replace=true is not supported by Windlass yet:"
                            + " Windlass patches objects in place (or force-recreates them with windlass.dev/apply annotations); remove it");
                } else if (key.equals("Force")) {
                    force = value.equals("true");
                } else if (SYNC_OPTIONS_IGNORED.containsKey(key)) {
                    ignored.add("syncOptions " + option + " (" + SYNC_OPTIONS_IGNORED.get(key) + ")");
                    if (firstIgnored == null) firstIgnored = "syncPolicy";
                } else if (!key.equals("Replace")) {
                    sync.error("syncOptions", "Application.spec.syncPolicy.syncOptions " + Excerpt.quoted(option) + " is not one Windlass"
                            + " reads; known: ServerSideApply, Force, Replace=false, " + String.join(", ", SYNC_OPTIONS_IGNORED.keySet()));
                }
            }
            if (sync.has("retry")) {
                ignored.add("syncPolicy.retry (Windlass retries on its own backoff)");
                if (firstIgnored == null) firstIgnored = "syncPolicy";
            }
            if (sync.has("managedNamespaceMetadata")) {
                sync.error("managedNamespaceMetadata", "Application.spec.syncPolicy.managedNamespaceMetadata is not supported by Windlass"
                        + " yet: write the Namespace, with its labels and annotations, in the source");
            }
            sync.end();
        }
        boolean suspend = !enabled;
        if (automated == null) {
            spec.warning(sync == null ? "destination" : "syncPolicy", "Argo CD Application " + Excerpt.quoted(name) + " has no"
                    + " spec.syncPolicy.automated, so Argo CD syncs it only when someone asks; Windlass has no manual sync, so it holds"
                    + " the application (suspended: observed, never written); add syncPolicy.automated to have Windlass apply it");
        }
        List<IgnoreDifferences> ignoreDifferences = ignoreDifferences(spec);

        // source, or sources
        Fields source = spec.object("source");
        boolean many = spec.has("sources");
        Source read = null;
        if (source != null && many) {
            spec.error("source", "Application.spec gives both source and sources; Argo CD then reads spec.sources and ignores spec.source:"
                    + " move spec.source into spec.sources as one more item, or remove one of them");
        } else if (many) {
            read = sources(spec, ctx, name, appName, doc, ignored);
        } else if (source == null) {
            spec.errorHere("Application.spec.source is required (or spec.sources)");
        } else {
            if (source.has("ref")) {
                source.error("ref", "Application.spec.source.ref names a source for the value files of another source of spec.sources;"
                        + " one spec.source has no other: remove it, or write spec.sources");
            }
            read = source(source, ctx, name, appName, doc, ignored, null);
        }
        if (read != null && read.firstIgnored() && firstIgnored == null) firstIgnored = many ? "sources" : "source";
        if (firstIgnored != null && !ignored.isEmpty()) {
            spec.warning(firstIgnored, "Application.spec: accepted and ignored, since they change how Argo CD works, not what it applies: "
                    + String.join("; ", ignored));
        }
        var sourceAt = read != null ? read.pathAt() : spec.at();
        var destinationAt = spec.at("destination");
        spec.end();
        // Nothing can be built or placed: no application, and the file is held as it was (said in out).
        if (read == null || destination == null) return null;
        return new AppDeclaration(appName, withName(labels, name), read.path(), sourceAt, namespace,
                new Application.Placement(null, List.of(destination.cluster()), 0), destination.at(),
                new Application.SyncPolicy(prune, selfHeal, strategy, force, ignoreDifferences), List.of(), spec.at(), suspend,
                doc.value().get("spec"), doc.location(), annotations,
                new AppDeclaration.Rendering(read.helm(), List.of(), allowEmpty, read.at(), null, read.argo()));
    }

    private static Map<String, String> withName(Map<String, String> labels, String name) {
        Map<String, String> out = new TreeMap<>(labels);
        out.put(LABEL_NAME, name);  // at most 63 characters, as the application's own name is
        return out;
    }

    /** The Windlass cluster and namespace of {@code spec.destination}. */
    record Destination(String cluster, String namespace, dev.windlass.policy.model.SourceLocation at) {}

    private static Destination destination(Fields spec, Context ctx) {
        Fields d = spec.object("destination");
        if (d == null) {
            if (!spec.has("destination")) spec.errorHere("Application.spec.destination is required: name (a Windlass Cluster) or server, and namespace");
            return null;
        }
        String name = d.string("name", null);
        String server = d.string("server", null);
        String namespace = d.string("namespace", "default");
        d.end();
        if (!DNS_LABEL.matcher(namespace).matches()) {
            d.error("namespace", "Application.spec.destination.namespace " + Excerpt.quoted(namespace) + " is not a valid namespace name (lowercase letters, digits, '-')");
            return null;
        }
        if (name != null && server != null) {
            d.errorHere("Application.spec.destination gives both name and server; give one, as Argo CD requires");
            return null;
        }
        if (name != null) {
            if (!ctx.clusters().containsKey(name)) {
                d.error("name", "Application.spec.destination.name " + Excerpt.quoted(name) + " is no Windlass Cluster"
                        + (ctx.clusters().isEmpty() ? " (the repo defines no clusters)" : "; known: " + String.join(", ", ctx.clusters().keySet()))
                        + "; name a Cluster, or add one by that name");
                return null;
            }
            return new Destination(name, namespace, d.at("name"));
        }
        if (server != null) {
            String wanted = trimSlash(server);
            List<String> matching = new ArrayList<>();
            ctx.clusters().forEach((n, c) -> {
                String s = c.annotations().get(SERVER_ANNOTATION);
                if (s != null && trimSlash(s).equals(wanted)) matching.add(n);
            });
            if (matching.size() == 1) return new Destination(matching.get(0), namespace, d.at("server"));
            d.error("server", "Application.spec.destination.server " + Excerpt.quoted(server) + (matching.isEmpty()
                    ? " is no Windlass Cluster's: give the Cluster it means the annotation " + SERVER_ANNOTATION + ": " + server + ", or use destination.name"
                    : " is the annotation " + SERVER_ANNOTATION + " of more than one Cluster (" + String.join(", ", matching) + "); keep it on one"));
            return null;
        }
        d.errorHere("Application.spec.destination needs name (a Windlass Cluster) or server (a Cluster's " + SERVER_ANNOTATION + " annotation)");
        return null;
    }

    private static String trimSlash(String s) {
        String t = s.trim();
        while (t.endsWith("/")) t = t.substring(0, t.length() - 1);
        return t;
    }

    /** {@code spec.ignoreDifferences}, in Argo CD's shape, which is Windlass's own but for jqPathExpressions. */
    private static List<IgnoreDifferences> ignoreDifferences(Fields spec) {
        List<IgnoreDifferences> rules = new ArrayList<>();
        for (Fields r : spec.objects("ignoreDifferences")) {
            String group = r.string("group", "");
            String kind = r.requiredString("kind");
            String name = r.string("name", "");
            String namespace = r.string("namespace", "");
            List<String> pointers = r.strings("jsonPointers");
            List<String> managers = r.strings("managedFieldsManagers");
            if (r.has("jqPathExpressions")) {
                r.error("jqPathExpressions", r.name("jqPathExpressions") + " is not supported by Windlass yet: write the fields as jsonPointers (like /spec/replicas)");
            }
            for (String p : pointers) {
                if (!p.startsWith("/") || p.length() < 2) {
                    r.error("jsonPointers", r.name("jsonPointers") + ": " + Excerpt.quoted(p) + " is not a JSON pointer; write it from the object's root, like /spec/replicas");
                }
            }
            r.end();
            if (kind != null && (!pointers.isEmpty() || !managers.isEmpty())) {
                rules.add(new IgnoreDifferences(group, kind, name, namespace, pointers, managers));
            }
        }
        return rules;
    }

    /**
     * What {@code spec.source} (or one item of {@code spec.sources}) reads: a path of this repo and how it is built, or a
     * chart of a chart repository; with where it is written (its path, else itself), and whether it is a plain directory.
     */
    record Source(String path, RenderSpec.Helm helm, ArgoRead argo, boolean firstIgnored, SourceLocation at, SourceLocation pathAt,
                  boolean plain) {}

    /** A source of {@code spec.sources} with a {@code ref}: its repo's root is what {@code $ref/...} value files start from. */
    record Ref(Fields source, String repoURL, boolean thisRepo) {}

    /**
     * {@code spec.sources}: the sources with a {@code ref} and no path or chart render nothing and only name a repo for
     * value files; the others render. One chart or kustomization alone, or any number of plain directories, whose objects
     * make one application.
     */
    private static Source sources(Fields spec, Context ctx, String name, String appName, YamlDoc doc, List<String> ignored) {
        List<Fields> items = spec.objects("sources");
        if (items.isEmpty()) {
            spec.error("sources", "Application.spec.sources lists no source; give at least one, with path or chart");
            return null;
        }
        if (items.size() > MAX_SOURCES) {
            spec.error("sources", "Application.spec.sources lists " + items.size() + " sources, more than Windlass reads in one Application ("
                    + MAX_SOURCES + "); split them into several Applications");
            return null;
        }
        boolean ok = true;
        Map<String, Ref> refs = new LinkedHashMap<>();
        Map<String, Fields> names = new LinkedHashMap<>();
        for (Fields s : items) {
            String sourceName = s.string("name", null);
            if (sourceName != null && names.putIfAbsent(sourceName, s) != null) {
                s.error("name", s.name("name") + " " + Excerpt.quoted(sourceName) + " is also the name of the source at "
                        + names.get(sourceName).at("name") + "; give each source its own name");
                ok = false;
            }
            String ref = s.string("ref", null);
            if (ref == null) continue;
            if (!REF.matcher(ref).matches()) {
                s.error("ref", s.name("ref") + " " + Excerpt.quoted(ref) + " is not a ref name: letters, digits, '-' and '_', as value files"
                        + " write it after '$'");
                ok = false;
            } else if (refs.containsKey(ref)) {
                s.error("ref", s.name("ref") + " " + Excerpt.quoted(ref) + " is also the ref of the source at "
                        + refs.get(ref).source().at("ref") + "; give each source its own ref");
                ok = false;
            } else {
                String repoURL = s.string("repoURL", "");
                refs.put(ref, new Ref(s, repoURL, !s.has("chart") && ctx.settings().isThisRepo(repoURL)));
            }
        }
        List<Source> rendered = new ArrayList<>();
        List<Fields> renderedAt = new ArrayList<>();
        boolean firstIgnored = false;
        for (Fields s : items) {
            if (s.has("ref") && !s.has("path") && !s.has("chart")) {
                int before = ignored.size();
                refOnly(s, ignored);
                firstIgnored |= ignored.size() > before;
                continue;
            }
            int before = ignored.size();
            Source one = source(s, ctx, name, appName, doc, ignored, refs);
            firstIgnored |= ignored.size() > before;
            if (one == null) {
                ok = false;
                continue;
            }
            rendered.add(one);
            renderedAt.add(s);
        }
        if (!ok) return null;
        if (rendered.isEmpty()) {
            spec.error("sources", "Application.spec.sources has only sources with ref and no path or chart, which render nothing;"
                    + " add the source to render, with path or chart");
            return null;
        }
        Source first = rendered.get(0);
        if (rendered.size() == 1) {
            return new Source(first.path(), first.helm(), first.argo(), firstIgnored, first.at(), first.pathAt(), first.plain());
        }
        List<ArgoRead.More> more = new ArrayList<>();
        for (int i = 0; i < rendered.size(); i++) {
            Source one = rendered.get(i);
            if (!one.plain()) {
                int other = i == 0 ? 1 : 0;
                Fields at = renderedAt.get(i);
                spec.error("sources", renderedAt.get(i).where() + " is " + (one.helm() != null ? "a Helm chart" : "a Kustomize build")
                        + " (" + at.at() + "), and " + renderedAt.get(other).where() + " renders objects too (" + renderedAt.get(other).at()
                        + "); Windlass renders a chart or a kustomization alone in an Application for now (several plain directories"
                        + " work together): give it an Application of its own");
                return null;
            }
            if (i > 0) more.add(new ArgoRead.More(one.path(), one.argo().directory(), one.pathAt()));
        }
        ArgoRead argo = new ArgoRead(doc.location(), first.argo().directory(), null, "", more);
        return new Source(first.path(), null, argo, firstIgnored, first.at(), first.pathAt(), true);
    }

    /** A source with a ref and no path or chart: it renders nothing, so nothing of how to render it may be given. */
    private static void refOnly(Fields s, List<String> ignored) {
        s.requiredString("repoURL");
        String targetRevision = s.string("targetRevision", null);
        if (targetRevision != null) ignored.add(s.name("targetRevision") + " " + Excerpt.quoted(targetRevision)
                + " (Windlass reads the commit of the branch it follows)");
        for (String key : List.of("helm", "kustomize", "directory", "plugin")) {
            if (s.has(key)) s.error(key, s.name(key) + " is never read: this source has a ref and no path or chart, so it renders"
                    + " nothing; remove it, or give the source a path");
        }
        s.end();
    }

    private static Source source(Fields source, Context ctx, String name, String appName, YamlDoc doc, List<String> ignored,
                                 Map<String, Ref> refs) {
        FluxSpecScreen.refuse(source, SOURCE_NOT_SUPPORTED);
        source.string("name", null);  // named for Argo CD's command line: nothing is applied by it
        source.string("ref", null);   // read with the other sources
        String where = source.where();
        // How the ignored fields name this source: source, or sources[i].
        String rel = where.substring("Application.spec.".length());
        String repoURL = source.requiredString("repoURL");
        String chart = source.string("chart", null);
        String targetRevision = source.string("targetRevision", null);
        String rawPath = source.string("path", null);
        Fields helm = source.object("helm");
        Fields kustomize = source.object("kustomize");
        Fields directory = source.object("directory");
        source.end();
        if (repoURL == null) return null;
        if (chart != null) {
            // A chart of a chart repository (or an OCI registry, which Argo CD names without oci://).
            if (rawPath != null) source.error("path", where + " gives both chart and path; give one");
            if (kustomize != null) source.error("kustomize", where + ".kustomize is for a path of the repo, not a chart");
            if (directory != null) source.error("directory", where + ".directory is for a path of the repo, not a chart");
            if (targetRevision == null || targetRevision.isEmpty()) {
                source.errorHere(where + ".targetRevision is required with chart: the chart's version (like 6.5.4, or a range like 6.x)");
                return null;
            }
            String url = repoURL.contains("://") ? repoURL : "oci://" + repoURL;
            if (!(url.startsWith("https://") || url.startsWith("http://") || url.startsWith("oci://"))) {
                source.error("repoURL", where + ".repoURL " + Excerpt.quoted(repoURL) + " is no chart repository Windlass reads:"
                        + " give an https:// address, or an OCI registry (as Argo CD writes it, without oci://)");
                return null;
            }
            Helm h = helm(helm, name, null, ctx, ignored, refs, rel);
            if (h == null) return null;
            // Values files of this repo are read first, the inline values last, as Argo CD passes them: a file of their own.
            List<String> files = new ArrayList<>(h.valueFiles());
            if (!files.isEmpty() && !h.values().isEmpty()) files.add(valuesFile(appName));
            ArgoRead argo = new ArgoRead(doc.location(), ArgoRead.Directory.DEFAULT, null, h.values());
            return new Source("", new RenderSpec.Helm("", url, chart, targetRevision, h.releaseName(), "", files, h.skipCrds(),
                    helm == null ? source.at() : helm.at()), argo, false, source.at(), source.at("chart"), false);
        }
        if (!ctx.settings().isThisRepo(repoURL)) {
            source.error("repoURL", where + ".repoURL " + Excerpt.quoted(repoURL) + " is not this repo"
                    + (ctx.settings().repoURLs().isEmpty() ? " (Settings.spec.argocd.repoURLs names none)" : " (Settings.spec.argocd.repoURLs: "
                    + String.join(", ", ctx.settings().repoURLs()) + ")") + "; Windlass reads Applications of this repo only, for now:"
                    + " list this repo's addresses in Settings.spec.argocd.repoURLs, or bring the other repo's files into this one");
            return null;
        }
        if (targetRevision != null) ignored.add(rel + ".targetRevision " + Excerpt.quoted(targetRevision)
                + " (Windlass reads the commit of the branch it follows)");
        if (rawPath == null) {
            source.errorHere(where + ".path is required: the folder of this repo to apply ('.' for its root)");
            return null;
        }
        String path = ApplicationReader.normalize(rawPath);
        if (path.equals(".")) path = "";
        if (path.equals("..") || path.startsWith("../") || path.contains("/../")) {
            source.error("path", where + ".path " + Excerpt.quoted(rawPath) + " leaves the repo; give a folder inside it");
            return null;
        }
        String prefix = path.isEmpty() ? "" : path + "/";
        if (ctx.files().subMap(prefix, prefix + "\uffff").isEmpty()) {
            source.error("path", where + ".path " + Excerpt.quoted(rawPath) + " does not exist in the repo; give a folder of it");
            return null;
        }
        boolean isChart = ctx.files().containsKey(prefix + "Chart.yaml");
        boolean isKustomize = !isChart && KustomizeReach.kustomization(ctx.files(), path) != null;
        String kind = isChart ? "a Helm chart (Chart.yaml)" : isKustomize ? "a Kustomize folder (kustomization.yaml)" : "a plain directory";
        if (helm != null && !isChart) source.error("helm", where + ".helm is for a chart, but " + (path.isEmpty() ? "." : path) + " is " + kind);
        if (kustomize != null && !isKustomize) source.error("kustomize", where + ".kustomize is for a kustomization, but " + (path.isEmpty() ? "." : path) + " is " + kind);
        if (directory != null && (isChart || isKustomize)) source.error("directory", where + ".directory is for a plain directory, but " + (path.isEmpty() ? "." : path) + " is " + kind);
        SourceLocation pathAt = source.at("path");
        if (isChart) {
            Helm h = helm(helm, name, prefix, ctx, ignored, refs, rel);
            if (h == null) return null;
            List<String> files = new ArrayList<>(h.valueFiles());
            if (!h.values().isEmpty()) files.add(valuesFile(appName));
            ArgoRead argo = new ArgoRead(doc.location(), ArgoRead.Directory.DEFAULT, null, h.values());
            return new Source(path, new RenderSpec.Helm(path, "", "", "", h.releaseName(), "", files, h.skipCrds(),
                    helm == null ? source.at() : helm.at()), argo, false, source.at(), pathAt, false);
        }
        if (isKustomize) {
            ArgoRead.Kustomize k = kustomize == null ? null : kustomize(kustomize);
            return new Source(path, null, new ArgoRead(doc.location(), ArgoRead.Directory.DEFAULT, k, ""), false, source.at(), pathAt, false);
        }
        ArgoRead.Directory dir = ArgoRead.Directory.DEFAULT;
        if (directory != null) {
            boolean recurse = directory.bool("recurse", false);
            String include = directory.string("include", "");
            String exclude = directory.string("exclude", "");
            if (directory.has("jsonnet")) {
                Fields jsonnet = directory.object("jsonnet");
                if (jsonnet != null) {
                    if (!jsonnet.has("extVars") && !jsonnet.has("tlas") && !jsonnet.has("libs")) jsonnet.end();
                    else directory.error("jsonnet", where + ".directory.jsonnet is not supported by Windlass yet: it reads YAML only");
                }
            }
            for (String key : List.of("include", "exclude")) {
                String glob = key.equals("include") ? include : exclude;
                if (!glob.isEmpty() && Globs.regex(glob) == null) {
                    directory.error(key, where + ".directory." + key + " " + Excerpt.quoted(glob) + " is not a valid glob: close every '[' and '{'");
                    return null;
                }
            }
            directory.end();
            dir = new ArgoRead.Directory(recurse, include, exclude);
        }
        return new Source(path, null, new ArgoRead(doc.location(), dir, null, ""), false, source.at(), pathAt, true);
    }

    /** The path in the render's files of the values an Application gives inline: read last, as Argo CD passes them. */
    static String valuesFile(String appName) { return ".windlass/argocd/" + appName + "/values.yaml"; }

    /** What {@code spec.source.helm} says: the release name, values files, and the inline values with parameters set over them. */
    record Helm(String releaseName, List<String> valueFiles, String values, boolean skipCrds) {}

    /**
     * {@code helm} of a source: {@code chartPrefix} is the folder of a chart of this repo ("" for its root, with '/'), or null
     * for a chart of a chart repository, whose own files Windlass does not read; {@code refs} are the sources of
     * {@code spec.sources} by ref (null for one {@code spec.source}), and {@code rel} how the ignored fields name the source.
     */
    private static Helm helm(Fields h, String name, String chartPrefix, Context ctx, List<String> ignored, Map<String, Ref> refs,
                             String rel) {
        if (h == null) return new Helm(name, List.of(), "", false);
        FluxSpecScreen.refuse(h, HELM_NOT_SUPPORTED);
        Map<String, String> helmIgnored = FluxSpecScreen.ignored(h, HELM_IGNORED);
        helmIgnored.values().forEach(v -> ignored.add((refs == null ? "" : rel + ".") + "helm." + v));
        String releaseName = h.string("releaseName", name);
        if (!RELEASE.matcher(releaseName).matches()) {
            h.error("releaseName", h.where() + ".releaseName " + Excerpt.quoted(releaseName)
                    + " is not a valid release name (lowercase letters, digits, '-', at most 53 characters)" + (h.has("releaseName") ? "" : "; give one"));
            return null;
        }
        boolean skipCrds = h.bool("skipCrds", false);
        boolean ignoreMissing = h.bool("ignoreMissingValueFiles", false);
        List<String> valueFiles = new ArrayList<>();
        List<String> given = h.strings("valueFiles");
        List<SourceLocation> givenAt = h.itemsAt("valueFiles");
        for (int i = 0; i < given.size(); i++) {
            String f = given.get(i);
            SourceLocation at = i < givenAt.size() ? givenAt.get(i) : h.at("valueFiles");
            String what = h.where() + ".valueFiles " + Excerpt.quoted(f);
            String path;
            if (f.startsWith("$")) {
                int slash = f.indexOf('/');
                String ref = f.substring(1, slash < 0 ? f.length() : slash);
                Ref target = refs == null ? null : refs.get(ref);
                if (refs == null) {
                    h.errorAt(at, what + " reads the files of another source, which only spec.sources has: write spec.sources, with a"
                            + " source of this repo that has ref: " + ref);
                    return null;
                }
                if (target == null) {
                    h.errorAt(at, what + ": $" + ref + " names no source of spec.sources" + (refs.isEmpty() ? " (none has a ref)"
                            : " (refs: " + String.join(", ", refs.keySet()) + ")") + "; give a source of this repo ref: " + ref + ", or fix the name");
                    return null;
                }
                if (!target.thisRepo()) {
                    h.errorAt(at, what + ": $" + ref + " is the source at " + target.source().at() + ", of " + Excerpt.quoted(target.repoURL())
                            + ", which is not this repo; Windlass reads only this repo's files (Settings.spec.argocd.repoURLs): bring the"
                            + " values file into this repo, or keep this Application on Argo CD");
                    return null;
                }
                if (slash < 0 || slash == f.length() - 1) {
                    h.errorAt(at, what + " names no file: write $" + ref + "/ and the file's path from the repo's root");
                    return null;
                }
                path = ApplicationReader.normalize(f.substring(slash + 1));
            } else if (f.contains("://")) {
                h.errorAt(at, what + " is an address; Windlass reads value files of this repo only: bring it into the repo");
                return null;
            } else if (chartPrefix == null) {
                h.errorAt(at, what + " would be a file of the chart from a chart repository, which Windlass does not read yet: write the"
                        + " values in valuesObject, or in a file of this repo read through a source with ref ($ref/path)");
                return null;
            } else {
                path = ApplicationReader.normalize(chartPrefix + f);
            }
            if (path.equals("..") || path.startsWith("../") || path.contains("/../") || path.startsWith("/")) {
                h.errorAt(at, what + " leaves the repo; give a file inside it");
                return null;
            }
            if (!ctx.files().containsKey(path)) {
                if (ignoreMissing) continue;
                h.errorAt(at, what + " does not exist (" + path + "); give a file " + (f.startsWith("$") ? "from the repo's root after $ref/"
                        : "relative to the chart's folder") + ", or set ignoreMissingValueFiles: true");
                return null;
            }
            valueFiles.add(path);
        }
        Map<String, Object> values = new LinkedHashMap<>();
        if (h.has("valuesObject")) {
            String text = h.mappingText("valuesObject");
            values = load(text);
            h.has("values");  // valuesObject wins over values, as in Argo CD
        } else if (h.has("values")) {
            String text = h.string("values", "");
            try {
                Object loaded = new Yaml(new SafeConstructor(YamlReader.options())).load(text);
                if (loaded instanceof Map<?, ?>) values = load(text);
                else if (loaded != null) {
                    h.error("values", h.where() + ".values must hold a YAML mapping of values");
                    return null;
                }
            } catch (RuntimeException e) {
                h.error("values", h.where() + ".values is not valid YAML; write them as a mapping (or use valuesObject)");
                return null;
            }
        }
        for (Fields p : h.objects("parameters")) {
            String key = p.requiredString("name");
            String value = p.rawScalar("value");
            p.has("value");
            boolean forceString = p.bool("forceString", false);
            p.end();
            if (key == null) continue;
            if (!PARAMETER.matcher(key).matches()) {
                p.error("name", h.where() + ".parameters name " + Excerpt.quoted(key) + " is not read yet: Windlass reads"
                        + " dotted names (a.b.c) only, without list indexes or escapes; write the value in valuesObject");
                return null;
            }
            set(values, key.split("\\."), forceString ? (value == null ? "" : value) : typed(value));
        }
        h.end();
        return new Helm(releaseName, valueFiles, values.isEmpty() ? "" : dump(values), skipCrds);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> load(String text) {
        Object loaded = new Yaml(new SafeConstructor(YamlReader.options())).load(text);
        return loaded instanceof Map<?, ?> m ? new LinkedHashMap<>((Map<String, Object>) m) : new LinkedHashMap<>();
    }

    /** A parameter's value as {@code helm --set} types it: true/false, whole numbers and null are themselves, else text. */
    private static Object typed(String value) {
        if (value == null) return "";
        if (value.equals("true") || value.equals("false")) return Boolean.parseBoolean(value);
        if (value.equals("null")) return null;
        if (value.matches("-?[0-9]+") && !(value.length() > 1 && value.startsWith("0"))) {
            try {
                return Long.parseLong(value);
            } catch (NumberFormatException e) {
                return value;
            }
        }
        return value;
    }

    @SuppressWarnings("unchecked")
    private static void set(Map<String, Object> values, String[] keys, Object value) {
        Map<String, Object> at = values;
        for (int i = 0; i < keys.length - 1; i++) {
            Object next = at.get(keys[i]);
            Map<String, Object> child = next instanceof Map<?, ?> m ? new LinkedHashMap<>((Map<String, Object>) m) : new LinkedHashMap<>();
            at.put(keys[i], child);
            at = child;
        }
        at.put(keys[keys.length - 1], value);
    }

    private static String dump(Map<String, Object> values) {
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        options.setSplitLines(false);
        return new Yaml(new SafeConstructor(YamlReader.options()), new Representer(options), options).dump(values);
    }

    /** {@code spec.source.kustomize}: what Argo CD's {@code kustomize edit} writes into the path's kustomization. */
    private static ArgoRead.Kustomize kustomize(Fields k) {
        FluxSpecScreen.refuse(k, KUSTOMIZE_NOT_SUPPORTED);
        String namePrefix = k.string("namePrefix", null);
        String nameSuffix = k.string("nameSuffix", null);
        String namespace = k.string("namespace", null);
        if (namespace != null && !DNS_LABEL.matcher(namespace).matches()) {
            k.error("namespace", k.where() + ".namespace " + Excerpt.quoted(namespace) + " is not a valid namespace name");
            namespace = null;
        }
        List<Map<String, Object>> images = new ArrayList<>();
        for (String image : k.strings("images")) {
            Map<String, Object> parsed = image(image);
            if (parsed == null) {
                k.error("images", k.where() + ".images " + Excerpt.quoted(image) + " is not an image as Argo CD writes"
                        + " them: [old=]new[:tag|@digest], like nginx:1.25 or nginx=registry.example/nginx:1.25");
            } else {
                images.add(parsed);
            }
        }
        Map<String, String> labels = k.stringMap("commonLabels");
        Map<String, String> annotations = k.stringMap("commonAnnotations");
        k.end();
        return new ArgoRead.Kustomize(namePrefix, nameSuffix, namespace, images, labels, annotations);
    }

    /**
     * An image as {@code kustomize edit set image} reads it: {@code [name=]newName[:tag|@digest]}; without '=', the name is
     * the image's own (without tag or digest) and only the tag or digest changes. Null when it is not one.
     */
    static Map<String, Object> image(String text) {
        String s = text.trim();
        if (s.isEmpty() || s.contains(" ")) return null;
        String name;
        String rest;
        int eq = s.indexOf('=');
        if (eq >= 0) {
            name = s.substring(0, eq);
            rest = s.substring(eq + 1);
            if (name.isEmpty() || rest.isEmpty()) return null;
        } else {
            name = null;
            rest = s;
        }
        String newName = rest;
        String tag = null;
        String digest = null;
        int at = rest.indexOf('@');
        if (at >= 0) {
            newName = rest.substring(0, at);
            digest = rest.substring(at + 1);
            if (digest.isEmpty()) return null;
        } else {
            int colon = rest.lastIndexOf(':');
            if (colon > rest.lastIndexOf('/')) {
                newName = rest.substring(0, colon);
                tag = rest.substring(colon + 1);
                if (tag.isEmpty()) return null;
            }
        }
        if (newName.isEmpty()) return null;
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("name", name == null ? newName : name);
        if (name != null && !newName.equals(name)) out.put("newName", newName);
        if (tag != null) out.put("newTag", tag);
        if (digest != null) out.put("digest", digest);
        return out;
    }
}
