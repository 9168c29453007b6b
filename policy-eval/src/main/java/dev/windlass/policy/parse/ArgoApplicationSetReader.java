package dev.windlass.policy.parse;

import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.LabelSelector;
import dev.windlass.policy.text.Excerpt;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Reads an Argo CD {@code ApplicationSet}: its {@code list} and {@code clusters} generators (the latter a label selector
 * over the repo's Windlass Clusters), each set of parameters filled into its {@code template} with Argo CD's default
 * fasttemplate syntax ({@code {{name}}}), or, with {@code goTemplate: true}, rendered by Go's text/template and sprig
 * through {@link GoTemplates} (the caller's: policy-eval starts no process), one Application per set. The Applications it makes keep the template's places in
 * the file, so what is wrong with one is said at the template's field. At most {@value #MAX_APPLICATIONS} per
 * ApplicationSet: more is an error at its generators, and it makes none.
 */
final class ArgoApplicationSetReader {
    static final int MAX_APPLICATIONS = 100;
    static final String LABEL_SET = "argocd.windlass.dev/applicationset";
    private static final Pattern PARAMETER = Pattern.compile("\\{\\{\\s*([^{}\\s]+)\\s*}}");

    private static final Map<String, String> GENERATORS_NOT_SUPPORTED = new LinkedHashMap<>();
    static {
        for (String g : List.of("merge", "scmProvider", "pullRequest", "clusterDecisionResource", "plugin")) {
            GENERATORS_NOT_SUPPORTED.put(g, "Windlass reads the list, clusters, git (directories, files) and matrix generators only, for now; write"
                    + " the Applications out, or keep this ApplicationSet on Argo CD");
        }
    }

    private ArgoApplicationSetReader() {}

    /** The Applications {@code doc} makes, as documents of its file; what is wrong is in {@code out}, and then it makes none. */
    static List<YamlDoc> expand(YamlDoc doc, ArgoApplicationReader.Context ctx, List<Diagnostic> out) {
        List<Diagnostic> found = new ArrayList<>();
        List<YamlDoc> made = read(doc, ctx, found);
        out.addAll(found);
        return found.stream().anyMatch(Diagnostic::isError) ? List.of() : made;
    }

    private static List<YamlDoc> read(YamlDoc doc, ArgoApplicationReader.Context ctx, List<Diagnostic> out) {
        Fields root = Fields.root(doc, "ApplicationSet", out);
        root.has("apiVersion");
        root.has("kind");
        root.has("status");
        if (!doc.apiVersion().equals(ArgoApplicationReader.API_VERSION)) {
            root.error("apiVersion", "apiVersion " + Excerpt.quoted(doc.apiVersion()) + " of ApplicationSet is not supported; Windlass reads "
                    + ArgoApplicationReader.API_VERSION);
        }
        Fields meta = root.object("metadata");
        String name = meta == null ? null : meta.requiredString("name");
        if (meta != null) {
            meta.string("namespace", null);
            meta.stringMap("labels");
            meta.stringMap("annotations");
            meta.strings("finalizers");
            meta.end();
        } else {
            root.errorHere("ApplicationSet.metadata is required, with at least a name");
        }
        Fields spec = root.object("spec");
        root.end();
        if (spec == null) {
            if (!root.has("spec")) root.errorHere("ApplicationSet.spec is required, with generators and template");
            return List.of();
        }
        boolean go = spec.bool("goTemplate", false);
        List<String> goOptions = spec.strings("goTemplateOptions");
        FluxSpecScreen.refuse(spec, Map.of(
                "templatePatch", "write the fields in the template",
                "strategy", "Windlass rolls out by its own RolloutPolicies; remove it and add a RolloutPolicy that selects the applications"
                        + " by the label " + LABEL_SET));
        Map<String, String> ignored = FluxSpecScreen.ignored(spec, Map.of(
                "syncPolicy", "Windlass removes an Application's objects as its prune says when the Application goes",
                "ignoreApplicationDifferences", "Windlass does not write Applications",
                "preservedFields", "Windlass does not write Applications"));
        if (!ignored.isEmpty()) {
            spec.warning(ignored.keySet().iterator().next(), "ApplicationSet.spec: accepted and ignored: " + String.join("; ", ignored.values()));
        }
        List<ArgoParams> sets = new ArrayList<>();
        List<Fields> generators = spec.objects("generators");
        if (generators.isEmpty() && !spec.has("generators")) spec.errorHere("ApplicationSet.spec.generators is required");
        for (Fields g : generators) sets.addAll(generator(g, ctx, true, go ? goOptions : null, out));
        Node template = null;
        for (NodeTuple t : ((MappingNode) specNode(doc)).getValue()) {
            if (t.getKeyNode() instanceof ScalarNode k && k.getValue().equals("template")) template = t.getValueNode();
        }
        if (!spec.has("template")) spec.errorHere("ApplicationSet.spec.template is required: the Application each set of parameters fills in");
        spec.end();
        if (template == null || name == null) return List.of();
        if (!(template instanceof MappingNode)) {
            out.add(Diagnostic.error(YamlReader.at(doc.path(), template.getStartMark()), "ApplicationSet.spec.template must be a mapping"));
            return List.of();
        }
        if (sets.size() > MAX_APPLICATIONS) {
            spec.error("generators", "ApplicationSet " + Excerpt.quoted(name) + " makes " + sets.size() + " Applications, more than Windlass"
                    + " makes from one ApplicationSet (" + MAX_APPLICATIONS + "); split it, or narrow its generators");
            return List.of();
        }
        if (out.stream().anyMatch(Diagnostic::isError)) return List.of();
        List<Map<String, String>> goFilled = go ? goRender(doc.path(), template, goOptions, sets, ctx.goTemplates(), out) : null;
        if (go && goFilled == null) return List.of();
        List<YamlDoc> made = new ArrayList<>();
        YamlReader.Values values = new YamlReader.Values(YamlReader.options());
        for (int i = 0; i < sets.size(); i++) {
            List<Diagnostic> unknown = new ArrayList<>();
            Node filled = go ? rendered(template, goFilled.get(i)) : fill(doc.path(), template, sets.get(i).flat(), unknown);
            if (!unknown.isEmpty()) {
                out.addAll(unknown);
                return List.of();
            }
            MappingNode app = application((MappingNode) filled, name);
            Map<String, Object> value;
            try {
                @SuppressWarnings("unchecked")
                Map<String, Object> read = (Map<String, Object>) values.of(app);
                value = read;
            } catch (RuntimeException e) {
                out.add(Diagnostic.error(YamlReader.at(doc.path(), template.getStartMark()), "ApplicationSet.spec.template cannot be read"
                        + " as an Application once filled in: a value's tag does not fit it; remove the tag"));
                return List.of();
            }
            made.add(new YamlDoc(doc.path(), doc.index(), DocTree.kept(app), value, YamlReader.at(doc.path(), template.getStartMark())));
        }
        return made;
    }

    /**
     * The sets of parameters of one generator; a matrix (only {@code top}) combines two others. {@code go}: the
     * goTemplateOptions when the ApplicationSet has goTemplate, else null.
     */
    private static List<ArgoParams> generator(Fields g, ArgoApplicationReader.Context ctx, boolean top, List<String> go, List<Diagnostic> out) {
        FluxSpecScreen.refuse(g, GENERATORS_NOT_SUPPORTED);
        if (g.has("selector")) g.error("selector", "ApplicationSet generator selector is not supported by Windlass yet; choose the elements or clusters themselves");
        Fields list = g.object("list");
        Fields clusters = g.object("clusters");
        Fields git = g.object("git");
        Fields matrix = g.object("matrix");
        g.end();
        List<ArgoParams> sets = new ArrayList<>();
        if (list != null) sets.addAll(list(list));
        if (clusters != null) sets.addAll(clusters(clusters, ctx, go, out));
        if (git != null) sets.addAll(git(git, ctx, out));
        if (matrix != null) {
            if (!top) {
                g.error("matrix", "a matrix inside a matrix is not supported by Windlass yet; combine two generators in one matrix");
                return sets;
            }
            List<Fields> two = matrix.objects("generators");
            matrix.end();
            if (two.size() != 2) {
                matrix.errorHere(matrix.name("generators") + " must hold exactly two generators, as in Argo CD");
                return sets;
            }
            List<ArgoParams> a = generator(two.get(0), ctx, false, go, out);
            List<ArgoParams> b = generator(two.get(1), ctx, false, go, out);
            if ((long) a.size() * b.size() > MAX_APPLICATIONS) {
                matrix.errorHere("ApplicationSet matrix makes " + ((long) a.size() * b.size()) + " sets of parameters (" + a.size() + " x "
                        + b.size() + "), more than Windlass makes from one ApplicationSet (" + MAX_APPLICATIONS + "); narrow its generators");
                return sets;
            }
            for (ArgoParams x : a) {
                for (ArgoParams y : b) {
                    Map<String, String> both = new TreeMap<>(x.flat());
                    for (var e : y.flat().entrySet()) {
                        String was = both.put(e.getKey(), e.getValue());
                        // With goTemplate, Argo CD merges the two sets, the first generator's values kept.
                        if (go == null && was != null && !was.equals(e.getValue())) {
                            matrix.errorHere("ApplicationSet matrix: both generators give the parameter " + Excerpt.quoted(e.getKey())
                                    + ", with different values (" + Excerpt.quoted(was) + ", " + Excerpt.quoted(e.getValue()) + "); rename one");
                            return sets;
                        }
                    }
                    sets.add(new ArgoParams(both, ArgoParams.merged(x.nested(), y.nested())));
                }
            }
        }
        return sets;
    }

    /**
     * {@code git} with {@code directories}: one set per folder of this repo that an include pattern matches and no exclude
     * pattern does ({@code *} within one folder name, {@code **} across), in path order: {@code path},
     * {@code path.basename}, {@code path.basenameNormalized} and {@code path[N]}, each folder name by its place (each under
     * {@code <pathParamPrefix>.} when one is given). With {@code files}: the sets of each JSON or YAML file the patterns pick, in path order (see {@link ArgoGitFiles}).
     */
    private static List<ArgoParams> git(Fields git, ArgoApplicationReader.Context ctx, List<Diagnostic> diagnostics) {
        String repoURL = git.requiredString("repoURL");
        git.string("revision", null);  // Windlass reads the commit of the branch it follows
        if (git.has("template")) git.error("template", "a generator's own template is not supported by Windlass yet; write it in spec.template");
        if (git.has("values")) git.error("values", "ApplicationSet git values is not supported by Windlass yet; write the values in spec.template");
        String prefix = git.string("pathParamPrefix", "");
        boolean files = git.has("files");
        if (files && git.has("directories")) git.error("files", "ApplicationSet git generator gives both directories and files; give one, as Argo CD reads one");
        List<String> include = new ArrayList<>();
        List<String> exclude = new ArrayList<>();
        for (Fields d : git.objects(files ? "files" : "directories")) {
            String path = d.requiredString("path");
            boolean excluded = d.bool("exclude", false);
            d.end();
            if (path == null) continue;
            String regex = files ? ArgoGitFiles.regex(path) : folderGlob(path);
            if (regex == null) d.error("path", d.name("path") + " " + Excerpt.quoted(path) + " is not a valid pattern: close every '[' and '{'");
            else (excluded ? exclude : include).add(regex);
        }
        if (!git.has("directories") && !files) git.errorHere("ApplicationSet git generator needs directories or files");
        List<ArgoParams> out = new ArrayList<>();
        if (repoURL == null) {
            git.end();
            return out;
        }
        if (!ctx.settings().isThisRepo(repoURL)) {
            git.error("repoURL", "ApplicationSet git repoURL " + Excerpt.quoted(repoURL) + " is not this repo; Windlass reads "
                    + (files ? "files" : "folders") + " of this repo only, for now: list its addresses in Settings.spec.argocd.repoURLs");
            git.end();
            return out;
        }
        if (files) {
            List<String> picked = new ArrayList<>();
            for (String file : ctx.files().keySet()) {
                if (include.stream().anyMatch(file::matches) && exclude.stream().noneMatch(file::matches)) picked.add(file);
            }
            if (picked.size() > MAX_APPLICATIONS) {
                git.error("files", "ApplicationSet git files pick " + picked.size() + " files, more than Windlass reads for one ApplicationSet ("
                        + MAX_APPLICATIONS + "); narrow the patterns");
                git.end();
                return out;
            }
            for (String file : picked) {
                out.addAll(ArgoGitFiles.sets(file, ctx.read().apply(file), prefix, diagnostics));
                if (out.size() > MAX_APPLICATIONS) break;  // said at the generators, once all are counted
            }
            git.end();
            return out;
        }
        git.end();
        String name = prefix.isEmpty() ? "path" : prefix + ".path";
        java.util.SortedSet<String> folders = new java.util.TreeSet<>();
        for (String file : ctx.files().keySet()) {
            for (int slash = file.indexOf('/'); slash > 0; slash = file.indexOf('/', slash + 1)) folders.add(file.substring(0, slash));
        }
        for (String folder : folders) {
            if (RepoParser.hidden(folder)) continue;
            if (include.stream().noneMatch(folder::matches) || exclude.stream().anyMatch(folder::matches)) continue;
            Map<String, String> params = new TreeMap<>();
            String[] parts = folder.split("/");
            String base = parts[parts.length - 1];
            params.put(name, folder);
            params.put(name + ".basename", base);
            params.put(name + ".basenameNormalized", ArgoGitFiles.normalized(base));
            for (int i = 0; i < parts.length; i++) params.put(name + "[" + i + "]", parts[i]);
            Map<String, Object> at = new java.util.LinkedHashMap<>();
            at.put("path", folder);
            at.put("basename", base);
            at.put("basenameNormalized", ArgoGitFiles.normalized(base));
            at.put("segments", List.of(parts));
            out.add(new ArgoParams(params, prefix.isEmpty() ? Map.of("path", at) : Map.of(prefix, Map.of("path", at))));
        }
        return out;
    }

    /** A folder pattern as a regular expression: {@code *} within one folder name, {@code **} across them; null when not valid. */
    private static String folderGlob(String glob) {
        String any = "\u0000";
        String r = Globs.regex(glob.replace("**", any));
        return r == null ? null : r.replace(".*", "[^/]*").replace(Pattern.quote(any), ".*");
    }

    private static Node specNode(YamlDoc doc) {
        for (NodeTuple t : ((MappingNode) doc.node()).getValue()) {
            if (t.getKeyNode() instanceof ScalarNode k && k.getValue().equals("spec")) return t.getValueNode();
        }
        return doc.node();
    }

    /** {@code list.elements}: each element's scalars, nested mappings flattened to dotted names ({@code values.size}). */
    private static List<ArgoParams> list(Fields list) {
        List<ArgoParams> out = new ArrayList<>();
        if (list.has("template")) list.error("template", "a generator's own template is not supported by Windlass yet; write it in spec.template");
        if (list.has("elementsYaml")) list.error("elementsYaml", "ApplicationSet list.elementsYaml is not supported by Windlass yet; write elements");
        List<Fields> elements = list.objects("elements");
        list.end();
        YamlReader.Values values = new YamlReader.Values(YamlReader.options());
        for (Fields e : elements) {
            Map<String, String> params = new TreeMap<>();
            flatten(e, "", params);
            Map<String, Object> nested;
            try {
                @SuppressWarnings("unchecked")
                Map<String, Object> read = (Map<String, Object>) values.of(e.node());
                nested = read;
            } catch (RuntimeException x) {
                nested = Map.of();  // a value its tag does not fit: said by the Application read of the filled template
            }
            out.add(new ArgoParams(params, nested));
        }
        return out;
    }

    private static void flatten(Fields f, String prefix, Map<String, String> out) {
        for (String key : f.keys()) {
            String scalar = f.rawScalar(key);
            if (scalar != null) out.put(prefix + key, scalar);
            else if (f.isMapping(key)) flatten(f.object(key), prefix + key + ".", out);
            else f.error(key, f.name(key) + " must be text or a mapping of them: a parameter of the template");
        }
        f.end();
    }

    /**
     * {@code clusters}: one set per Windlass Cluster its selector matches ({} or none: every Cluster), in name order:
     * {@code name}, {@code nameNormalized}, {@code server} (its {@code argocd.windlass.dev/server} annotation, or ""),
     * {@code metadata.labels.<key>}, {@code metadata.annotations.<key>}, and {@code values.<key>} (filled in turn).
     */
    private static List<ArgoParams> clusters(Fields clusters, ArgoApplicationReader.Context ctx, List<String> go, List<Diagnostic> diagnostics) {
        LabelSelector selector = clusters.has("selector") ? SelectorReader.read(clusters, "selector") : LabelSelector.EVERYTHING;
        Map<String, String> values = clusters.stringMap("values");
        if (clusters.has("template")) clusters.error("template", "a generator's own template is not supported by Windlass yet; write it in spec.template");
        if (clusters.has("flatList")) clusters.error("flatList", "ApplicationSet clusters.flatList is not supported by Windlass yet");
        clusters.end();
        List<ArgoParams> out = new ArrayList<>();
        for (Cluster c : ctx.clusters().values()) {
            if (!selector.matches(c.labels())) continue;
            Map<String, String> params = new TreeMap<>();
            params.put("name", c.name());
            params.put("nameNormalized", c.name());
            params.put("server", c.annotations().getOrDefault(ArgoApplicationReader.SERVER_ANNOTATION, ""));
            c.labels().forEach((k, v) -> params.put("metadata.labels." + k, v));
            c.annotations().forEach((k, v) -> params.put("metadata.annotations." + k, v));
            Map<String, String> filledValues = new TreeMap<>();
            values.forEach((k, v) -> filledValues.put("values." + k, fillText(v, params, new ArrayList<>())));
            params.putAll(filledValues);
            Map<String, Object> nested = new java.util.LinkedHashMap<>();
            nested.put("name", c.name());
            nested.put("nameNormalized", c.name());
            nested.put("server", params.get("server"));
            nested.put("metadata", Map.of("labels", new TreeMap<>(c.labels()), "annotations", new TreeMap<>(c.annotations())));
            out.add(new ArgoParams(params, nested));
        }
        if (go != null && !values.isEmpty() && !out.isEmpty()) return goValues(clusters, values, out, go, ctx.goTemplates(), diagnostics);
        return out;
    }

    /**
     * goTemplate: every text of the template holding {@code {{} (keys too, as Argo CD renders map keys) rendered by
     * {@code go} with each set's nested parameters, in one run; by set, each such text and what it renders to. Null when
     * rendering fails: said in {@code out} at the text that failed, with Go's error, or at the template when the run was
     * stopped.
     */
    private static List<Map<String, String>> goRender(String path, Node template, List<String> options, List<ArgoParams> sets,
            GoTemplates go, List<Diagnostic> out) {
        Map<String, Node> places = new LinkedHashMap<>();
        templated(template, places);
        List<String> texts = new ArrayList<>(places.keySet());
        List<Map<String, String>> filled = new ArrayList<>();
        if (texts.isEmpty() || sets.isEmpty()) {
            for (int i = 0; i < sets.size(); i++) filled.add(Map.of());
            return filled;
        }
        List<Map<String, Object>> params = new ArrayList<>();
        for (ArgoParams p : sets) params.add(p.nested());
        switch (go.render(options, params, texts)) {
            case GoTemplates.Result.Rendered r -> {
                if (r.texts().size() != sets.size()) {
                    out.add(Diagnostic.error(YamlReader.at(path, template.getStartMark()), "ApplicationSet template (goTemplate): the renderer"
                            + " gave " + r.texts().size() + " results for " + sets.size() + " sets of parameters; report this"));
                    return null;
                }
                for (List<String> each : r.texts()) {
                    Map<String, String> by = new LinkedHashMap<>();
                    for (int i = 0; i < texts.size() && i < each.size(); i++) by.put(texts.get(i), each.get(i));
                    filled.add(by);
                }
                return filled;
            }
            case GoTemplates.Result.Failed f -> {
                Node at = f.template() >= 0 && f.template() < texts.size() ? places.get(texts.get(f.template())) : template;
                out.add(Diagnostic.error(YamlReader.at(path, at.getStartMark()), "ApplicationSet template (goTemplate, set of parameters "
                        + (f.set() + 1) + " of " + sets.size() + "): " + Excerpt.words(f.error()) + "; fix the template, or the parameters it reads"));
                return null;
            }
            case GoTemplates.Result.Stopped st -> {
                out.add(Diagnostic.error(YamlReader.at(path, template.getStartMark()), "ApplicationSet template (goTemplate) could not be"
                        + " rendered: " + st.why()));
                return null;
            }
        }
    }

    /** Each text of {@code node} (keys and values) that holds {@code {{}, with the first place it is at. */
    private static void templated(Node node, Map<String, Node> places) {
        if (node instanceof ScalarNode s) {
            if (s.getValue().contains("{{")) places.putIfAbsent(s.getValue(), s);
        } else if (node instanceof MappingNode m) {
            for (NodeTuple t : m.getValue()) {
                templated(t.getKeyNode(), places);
                templated(t.getValueNode(), places);
            }
        } else if (node instanceof SequenceNode q) {
            for (Node n : q.getValue()) templated(n, places);
        }
    }

    /** The node with each text goTemplate rendered replaced by what it rendered to, at the same places. */
    private static Node rendered(Node node, Map<String, String> texts) {
        if (node instanceof ScalarNode s) {
            String text = texts.get(s.getValue());
            return text == null ? s : new ScalarNode(s.getTag(), text, s.getStartMark(), s.getEndMark(), s.getScalarStyle());
        }
        if (node instanceof MappingNode m) {
            List<NodeTuple> tuples = new ArrayList<>();
            for (NodeTuple t : m.getValue()) tuples.add(new NodeTuple(rendered(t.getKeyNode(), texts), rendered(t.getValueNode(), texts)));
            return new MappingNode(m.getTag(), true, tuples, m.getStartMark(), m.getEndMark(), m.getFlowStyle());
        }
        if (node instanceof SequenceNode q) {
            List<Node> items = new ArrayList<>();
            for (Node n : q.getValue()) items.add(rendered(n, texts));
            return new SequenceNode(q.getTag(), true, items, q.getStartMark(), q.getEndMark(), q.getFlowStyle());
        }
        return node;
    }

    /**
     * goTemplate: each of the clusters generator's {@code values} rendered as a Go template with each Cluster's parameters,
     * as Argo CD renders them, and given as {@code .values.<key>}; a failure is an error at {@code values}, and then none.
     */
    private static List<ArgoParams> goValues(Fields clusters, Map<String, String> values, List<ArgoParams> sets, List<String> options,
            GoTemplates go, List<Diagnostic> diagnostics) {
        List<String> keys = new ArrayList<>(values.keySet());
        List<String> texts = new ArrayList<>(values.values());
        List<Map<String, Object>> params = new ArrayList<>();
        for (ArgoParams p : sets) params.add(p.nested());
        List<List<String>> rendered = switch (go.render(options, params, texts)) {
            case GoTemplates.Result.Rendered r -> {
                if (r.texts().size() == sets.size()) yield r.texts();
                diagnostics.add(Diagnostic.error(clusters.at("values"), "ApplicationSet clusters.values (goTemplate): the renderer gave "
                        + r.texts().size() + " results for " + sets.size() + " Clusters; report this"));
                yield null;
            }
            case GoTemplates.Result.Failed f -> {
                diagnostics.add(Diagnostic.error(clusters.at("values"), "ApplicationSet clusters.values." + keys.get(Math.max(0, Math.min(f.template(),
                        keys.size() - 1))) + " (goTemplate, Cluster " + (f.set() + 1) + " of " + sets.size() + "): " + Excerpt.words(f.error())
                        + "; fix the value, or the parameters it reads"));
                yield null;
            }
            case GoTemplates.Result.Stopped st -> {
                diagnostics.add(Diagnostic.error(clusters.at("values"), "ApplicationSet clusters.values (goTemplate) could not be rendered: " + st.why()));
                yield null;
            }
        };
        if (rendered == null) return List.of();
        List<ArgoParams> out = new ArrayList<>();
        for (int i = 0; i < sets.size(); i++) {
            Map<String, Object> each = new LinkedHashMap<>();
            for (int k = 0; k < keys.size() && k < rendered.get(i).size(); k++) each.put(keys.get(k), rendered.get(i).get(k));
            Map<String, Object> nested = new LinkedHashMap<>(sets.get(i).nested());
            nested.put("values", each);
            out.add(new ArgoParams(sets.get(i).flat(), nested));
        }
        return out;
    }

    /** The node with every {@code {{param}}} of its scalars filled in, at the same places; an unknown one is said in {@code unknown}. */
    private static Node fill(String path, Node node, Map<String, String> params, List<Diagnostic> unknown) {
        if (node instanceof ScalarNode s) {
            if (!s.getValue().contains("{{")) return s;
            List<String> missing = new ArrayList<>();
            String text = fillText(s.getValue(), params, missing);
            for (String m : missing) {
                unknown.add(Diagnostic.error(YamlReader.at(path, s.getStartMark()), "ApplicationSet template: {{" + m + "}} is no parameter of"
                        + " its generators (" + String.join(", ", params.keySet()) + "); name one of them"));
            }
            return new ScalarNode(s.getTag(), text, s.getStartMark(), s.getEndMark(), s.getScalarStyle());
        }
        if (node instanceof MappingNode m) {
            List<NodeTuple> tuples = new ArrayList<>();
            for (NodeTuple t : m.getValue()) tuples.add(new NodeTuple(t.getKeyNode(), fill(path, t.getValueNode(), params, unknown)));
            return new MappingNode(m.getTag(), true, tuples, m.getStartMark(), m.getEndMark(), m.getFlowStyle());
        }
        if (node instanceof SequenceNode q) {
            List<Node> items = new ArrayList<>();
            for (Node n : q.getValue()) items.add(fill(path, n, params, unknown));
            return new SequenceNode(q.getTag(), true, items, q.getStartMark(), q.getEndMark(), q.getFlowStyle());
        }
        return node;
    }

    private static String fillText(String text, Map<String, String> params, List<String> missing) {
        Matcher m = PARAMETER.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = params.get(m.group(1));
            if (value == null) missing.add(m.group(1));
            m.appendReplacement(out, Matcher.quoteReplacement(value == null ? m.group() : value));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** The template as an Application document: apiVersion and kind added, and the set's label on its metadata. */
    private static MappingNode application(MappingNode template, String set) {
        List<NodeTuple> tuples = new ArrayList<>();
        var mark = template.getStartMark();
        tuples.add(new NodeTuple(scalar("apiVersion", mark), scalar(ArgoApplicationReader.API_VERSION, mark)));
        tuples.add(new NodeTuple(scalar("kind", mark), scalar("Application", mark)));
        for (NodeTuple t : template.getValue()) {
            if (t.getKeyNode() instanceof ScalarNode k && k.getValue().equals("metadata") && t.getValueNode() instanceof MappingNode meta) {
                tuples.add(new NodeTuple(t.getKeyNode(), withLabel(meta, set)));
            } else {
                tuples.add(t);
            }
        }
        return new MappingNode(Tag.MAP, true, tuples, mark, template.getEndMark(), template.getFlowStyle());
    }

    private static MappingNode withLabel(MappingNode meta, String set) {
        List<NodeTuple> tuples = new ArrayList<>();
        boolean found = false;
        var mark = meta.getStartMark();
        for (NodeTuple t : meta.getValue()) {
            if (t.getKeyNode() instanceof ScalarNode k && k.getValue().equals("labels") && t.getValueNode() instanceof MappingNode labels) {
                List<NodeTuple> more = new ArrayList<>(labels.getValue());
                more.add(new NodeTuple(scalar(LABEL_SET, labels.getStartMark()), scalar(set, labels.getStartMark())));
                tuples.add(new NodeTuple(t.getKeyNode(), new MappingNode(Tag.MAP, true, more, labels.getStartMark(), labels.getEndMark(), labels.getFlowStyle())));
                found = true;
            } else {
                tuples.add(t);
            }
        }
        if (!found) {
            tuples.add(new NodeTuple(scalar("labels", mark), new MappingNode(Tag.MAP, true,
                    List.of(new NodeTuple(scalar(LABEL_SET, mark), scalar(set, mark))), mark, mark, org.yaml.snakeyaml.DumperOptions.FlowStyle.FLOW)));
        }
        return new MappingNode(Tag.MAP, true, tuples, meta.getStartMark(), meta.getEndMark(), meta.getFlowStyle());
    }

    private static ScalarNode scalar(String text, org.yaml.snakeyaml.error.Mark mark) {
        return new ScalarNode(Tag.STR, text, mark, mark, org.yaml.snakeyaml.DumperOptions.ScalarStyle.PLAIN);
    }
}
