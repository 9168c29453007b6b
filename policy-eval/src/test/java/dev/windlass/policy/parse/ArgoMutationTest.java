package dev.windlass.policy.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Bad input: the Argo CD Application of the example repo's Helm chart (releaseName, valueFiles, values, parameters, sync
 * policy), an ApplicationSet, and an Application of several sources (a chart with value files of the repo through a ref,
 * and one of two plain directories) mutated a line at a time. Whatever the mutation, reading never throws; every error is at {@code path:line:col}
 * inside the file it is about; and the application of an Application in another file is exactly what it was.
 */
class ArgoMutationTest {
    static final String FILE = "argocd/apps/helm-guestbook.yaml";
    static final String ORIGINAL = ArgoFixture.HELM_GUESTBOOK;

    /** One change to one line: deleted, doubled, its value replaced, its key misspelt, or indented differently. */
    record Mutation(int line, int kind, String value) {
        String apply(String text) {
            List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
            int i = Math.floorMod(line, lines.size());
            String l = lines.get(i);
            int colon = l.indexOf(':');
            switch (kind) {
                case 0 -> lines.remove(i);
                case 1 -> lines.add(i, l);
                case 2 -> lines.set(i, colon < 0 ? value : l.substring(0, colon + 1) + " " + value);
                case 3 -> lines.set(i, colon < 0 ? l + value : l.substring(0, colon) + value + l.substring(colon));
                default -> lines.set(i, "  " + l);
            }
            return String.join("\n", lines);
        }
    }

    @Provide
    Arbitrary<Mutation> mutations() {
        Arbitrary<String> values = Arbitraries.oneOf(
                Arbitraries.of("", "~", "[]", "{}", "-1", "true", "\"\"", "[{name: x}]", "{name: x}", "./../..", "..", "$values/x.yaml",
                        "oci://x", "[a=b:c]", "'{a,b'", "&a [*a]", "!!binary AAAA", "'unclosed", "{a: [b", "[Replace=true]", "\"x.y[0]\""),
                Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(12));
        return Combinators.combine(Arbitraries.integers().between(0, 30), Arbitraries.integers().between(0, 4), values).as(Mutation::new);
    }

    private static DesiredState parse(String app) { return RepoParser.parse(ArgoFixture.repo(Map.of(FILE, app))); }

    static final Application BYSTANDER = parse(ORIGINAL).apps().get("kustomize-guestbook");

    @Property(tries = 300)
    void aMutationIsReadOrRejectedAtItsPlaceAndHoldsNoOtherApplication(@ForAll("mutations") Mutation m) {
        String text = m.apply(ORIGINAL);
        DesiredState s = parse(text);
        int lines = text.split("\n", -1).length;
        for (Diagnostic d : s.diagnostics()) {
            if (!d.isError()) continue;
            assertEquals(FILE, d.location().path(), d.toString());
            assertTrue(d.location().line() >= 1 && d.location().line() <= lines + 1 && d.location().column() >= 1, d.toString());
        }
        assertEquals(BYSTANDER, s.apps().get("kustomize-guestbook"), "the Application of another file is read as it was, after " + m);
    }

    static final String SET_FILE = "argocd/apps/set.yaml";
    static final String SET = ArgoApplicationParseTest.set(ArgoApplicationParseTest.LIST, "gb-{{env}}", "{{env}}", "gb-{{env}}");

    /** The same for an ApplicationSet (a list generator, a template): its errors stay in its file. */
    @Property(tries = 200)
    void aMutatedApplicationSetIsReadOrRejectedAtItsPlaceAndHoldsNoOtherApplication(@ForAll("mutations") Mutation m) {
        String text = m.apply(SET);
        DesiredState s = RepoParser.parse(ArgoFixture.repo(Map.of(SET_FILE, text)));
        if (text.equals(SET)) assertEquals(List.of(), ArgoFixture.errors(s), "the ApplicationSet as written is read without an error");
        int lines = text.split("\n", -1).length;
        for (Diagnostic d : s.diagnostics()) {
            if (!d.isError()) continue;
            assertEquals(SET_FILE, d.location().path(), d.toString());
            assertTrue(d.location().line() >= 1 && d.location().line() <= lines + 1 && d.location().column() >= 1, d.toString());
        }
        assertEquals(BYSTANDER, s.apps().get("kustomize-guestbook"), "the Application of another file is read as it was, after " + m);
    }

    static final String SOURCES_FILE = "argocd/apps/sources.yaml";
    /** Two Applications of spec.sources: a chart with a value file of the repo through $values, and two plain directories. */
    static final String SOURCES = """
            apiVersion: argoproj.io/v1alpha1
            kind: Application
            metadata: {name: web, namespace: argocd}
            spec:
              sources:
                - repoURL: https://github.com/argoproj/argocd-example-apps.git
                  path: helm-guestbook
                  helm:
                    releaseName: web
                    valueFiles: [values.yaml, $values/envs/prod/values.yaml]
                    valuesObject: {replicaCount: 2}
                - repoURL: https://github.com/argoproj/argocd-example-apps.git
                  targetRevision: HEAD
                  ref: values
              destination: {name: production, namespace: web}
              syncPolicy: {automated: {prune: true}}
            ---
            apiVersion: argoproj.io/v1alpha1
            kind: Application
            metadata: {name: two, namespace: argocd}
            spec:
              sources:
                - {repoURL: "https://github.com/argoproj/argocd-example-apps.git", path: guestbook, name: ui}
                - repoURL: https://github.com/argoproj/argocd-example-apps.git
                  path: envs
                  directory: {recurse: true, include: "*/config.yaml"}
              destination: {name: production, namespace: two}
              syncPolicy: {automated: {}}
            """;

    private static DesiredState parseSources(String text) {
        return RepoParser.parse(ArgoFixture.repo(Map.of(SOURCES_FILE, text, "envs/prod/values.yaml", "replicaCount: 3\n",
                "envs/prod/config.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: prod}\n")));
    }

    @Example
    void theApplicationsOfSeveralSourcesAsWrittenAreRead() {
        DesiredState s = parseSources(SOURCES);
        assertEquals(List.of(), ArgoFixture.errors(s));
        assertEquals(List.of("helm-guestbook/values.yaml", "envs/prod/values.yaml", ".windlass/argocd/web/values.yaml"),
                s.apps().get("web").render().helm().valuesFiles());
        assertEquals(List.of("ConfigMap/prod", "Deployment/guestbook-ui", "Namespace/two", "Service/guestbook-ui"),
                s.apps().get("two").manifests().stream().map(x -> x.ref().kind() + "/" + x.ref().name()).sorted().toList());
    }

    /** The same for Applications of several sources: their errors stay in their file, and the others are read as they were. */
    @Property(tries = 300)
    void aMutatedApplicationOfSeveralSourcesIsReadOrRejectedAtItsPlaceAndHoldsNoOtherApplication(@ForAll("sourcesMutations") Mutation m) {
        String text = m.apply(SOURCES);
        DesiredState s = parseSources(text);
        if (text.equals(SOURCES)) {
            assertEquals(List.of(), ArgoFixture.errors(s), "the Applications as written are read without an error");
            assertTrue(s.apps().get("web").valid() && s.apps().get("two").valid());
        }
        int lines = text.split("\n", -1).length;
        for (Diagnostic d : s.diagnostics()) {
            if (!d.isError()) continue;
            assertEquals(SOURCES_FILE, d.location().path(), d.toString());
            assertTrue(d.location().line() >= 1 && d.location().line() <= lines + 1 && d.location().column() >= 1, d.toString());
        }
        assertEquals(BYSTANDER, s.apps().get("kustomize-guestbook"), "the Application of another file is read as it was, after " + m);
    }

    @Provide
    Arbitrary<Mutation> sourcesMutations() {
        Arbitrary<String> values = Arbitraries.oneOf(
                Arbitraries.of("", "~", "[]", "{}", "true", "\"\"", "[{name: x}]", "{name: x}", "..", "$values/x.yaml", "$values/../x",
                        "$values", "$other/envs/prod/values.yaml", "values", "HEAD", "[values.yaml]", "https://github.com/org/other.git",
                        "helm-guestbook", "guestbook", "kustomize-guestbook", "envs", "[{repoURL: x, ref: values}]", "'unclosed"),
                Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(12));
        return Combinators.combine(Arbitraries.integers().between(0, 32), Arbitraries.integers().between(0, 4), values).as(Mutation::new);
    }

    static final String FILES_SET_FILE = "argocd/apps/files.yaml";
    static final String CONFIG_FILE = ".envs/web/envs.yaml";
    static final String FILES_SET = ArgoApplicationParseTest.setOf("    - git:\n        repoURL: " + ArgoFixture.REPO_URL + "\n        files:\n"
            + "          - path: '.envs/**/*.yaml'\n          - {path: '.envs/old/**', exclude: true}\n",
            "{{path.basename}}-{{env}}", "guestbook", "{{cluster.name}}");
    static final String CONFIG = "- env: staging\n  cluster: {name: in-cluster}\n  replicas: 2\n- env: prod\n  cluster:\n    name: production\n"
            + "  tags: [a, b]\n";

    /** The same for a git files ApplicationSet and the config file it reads: errors are in one of the two, at their places. */
    @Property(tries = 200)
    void aMutatedGitFilesApplicationSetOrConfigFileIsReadOrRejectedAtItsPlace(@ForAll("mutations") Mutation set,
            @ForAll("mutations") Mutation config) {
        String setText = set.apply(FILES_SET);
        String configText = config.apply(CONFIG);
        DesiredState s = RepoParser.parse(ArgoFixture.repo(Map.of(FILES_SET_FILE, setText, CONFIG_FILE, configText)));
        if (setText.equals(FILES_SET) && configText.equals(CONFIG)) {
            assertEquals(List.of(), ArgoFixture.errors(s), "the ApplicationSet as written is read without an error");
            assertEquals(List.of("in-cluster"), s.apps().get("web-staging").placement().clusterNames());
            assertEquals(List.of("production"), s.apps().get("web-prod").placement().clusterNames());
        }
        for (Diagnostic d : s.diagnostics()) {
            if (!d.isError()) continue;
            String path = d.location().path();
            assertTrue(path.equals(FILES_SET_FILE) || path.equals(CONFIG_FILE), d.toString());
            int lines = (path.equals(CONFIG_FILE) ? configText : setText).split("\n", -1).length;
            assertTrue(d.location().line() >= 1 && d.location().line() <= lines + 1 && d.location().column() >= 1, d.toString());
        }
        assertEquals(BYSTANDER, s.apps().get("kustomize-guestbook"), "the Application of another file is read as it was, after " + set + ", " + config);
    }
}
