package dev.windlass.policy.parse;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.FluxSettings;
import dev.windlass.policy.text.Excerpt;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Flux objects of a repo that Windlass reads itself: {@code Kustomization}s (each one an application), the
 * {@code ArtifactGenerator}s whose artifacts they build, and the {@code GitRepository} a bootstrapped repo syncs itself
 * from. They are gathered while the repo is read, and read once {@code Settings} says which clusters each folder is for.
 */
final class FluxImports {
    private static final String SOURCE_GROUP = "source.toolkit.fluxcd.io/";
    private final List<YamlDoc> kustomizations = new ArrayList<>();
    private final List<YamlDoc> generators = new ArrayList<>();

    /** Whether {@code doc} is a Flux object read here, rather than a manifest. */
    static boolean claims(YamlDoc doc) {
        String api = doc.apiVersion();
        return api.startsWith(FluxKustomizationReader.API_GROUP) && doc.kind().equals("Kustomization")
                || api.startsWith(FluxArtifacts.API_GROUP) && doc.kind().equals("ArtifactGenerator")
                || api.startsWith(SOURCE_GROUP) && doc.kind().equals("GitRepository");
    }

    void add(YamlDoc doc) {
        if (doc.kind().equals("Kustomization")) kustomizations.add(doc);
        else if (doc.kind().equals("ArtifactGenerator")) generators.add(doc);
        // A GitRepository is a source: the one that is this repo needs no reading, and a Kustomization naming another is an error.
    }

    /** Each Kustomization as an application declaration; a file none can be made of is added to {@code broken}. */
    List<RepoParser.Declared> read(FluxSettings settings, Set<String> broken, List<Diagnostic> all) {
        FluxArtifacts artifacts = new FluxArtifacts();
        for (YamlDoc g : generators) {
            FluxKustomizationReader.Mapped m = mapped(g.path(), settings);
            artifacts.read(g, m == null ? "" : m.folder());
        }
        List<RepoParser.Declared> declared = new ArrayList<>();
        for (YamlDoc doc : kustomizations) {
            List<Diagnostic> found = new ArrayList<>();
            FluxKustomizationReader.Mapped m = mapped(doc.path(), settings);
            AppDeclaration a = FluxKustomizationReader.read(doc, m, artifacts, found);
            if (a != null && m != null && a.sourcePath().equals(m.folder()) && FluxKustomizationReader.THIS_REPO.equals(DocPositions.name(doc))) {
                all.add(Diagnostic.warning(doc.location(), "Kustomization flux-system is how Flux syncs " + Excerpt.quoted(m.folder())
                        + " itself: Windlass reads the Flux objects of that folder and runs no Flux controllers, so it is not imported"));
                continue;
            }
            if (a == null) broken.add(doc.path());
            else declared.add(new RepoParser.Declared(a, doc, new ArrayList<>(found)));
            all.addAll(found);
        }
        return declared;
    }

    /** The first entry of {@code settings} whose folder holds {@code file}, or null. */
    static FluxKustomizationReader.Mapped mapped(String file, FluxSettings settings) {
        for (FluxSettings.ClusterFolder entry : settings.clusters()) {
            StringBuilder regex = new StringBuilder("^");
            String[] segments = entry.path().split("/");
            int last = -1;
            for (int i = 0; i < segments.length; i++) {
                if (i > 0) regex.append('/');
                if (segments[i].equals(FluxSettings.ClusterFolder.CLUSTER)) {
                    regex.append("([^/]+)");
                    last = i;
                } else {
                    regex.append(Pattern.quote(segments[i]));
                }
            }
            Matcher m = Pattern.compile(regex + "/").matcher(file);
            if (!m.lookingAt()) continue;
            String folder = file.substring(0, m.end() - 1);
            String key = last >= 0 ? m.group(1) : segments[segments.length - 1];
            List<String> names = new ArrayList<>();
            if (last >= 0) names.add(m.group(1));
            entry.clusterNames().forEach(n -> { if (!names.contains(n)) names.add(n); });
            return new FluxKustomizationReader.Mapped(folder, key, new Application.Placement(entry.clusterSelector(), names, 0), entry.at());
        }
        return null;
    }
}
