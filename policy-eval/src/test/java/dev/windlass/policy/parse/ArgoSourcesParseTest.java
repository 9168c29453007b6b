package dev.windlass.policy.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.DesiredState;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An Argo CD Application with {@code spec.sources}: a chart with value files of this repo through a source's {@code ref}
 * (the shape of Argo CD's documented multiple-sources example), several plain directories applied as one application,
 * and each thing Windlass does not follow an error at its place that holds that application only.
 */
class ArgoSourcesParseTest {
    static final String PROD_VALUES = "replicaCount: 3\nservice:\n  type: ClusterIP\n";

    /** The example repo, adopted, with argocd/apps/app.yaml as given and a values file of this repo at envs/prod/values.yaml. */
    static DesiredState parse(String app, String... more) {
        Map<String, String> extra = new TreeMap<>();
        extra.put("argocd/apps/app.yaml", app);
        extra.put("envs/prod/values.yaml", PROD_VALUES);
        for (int i = 0; i < more.length; i += 2) extra.put(more[i], more[i + 1]);
        return RepoParser.parse(ArgoFixture.repo(extra));
    }

    /** An Application "app" whose spec.sources is {@code sources} (items, indented by four spaces, each starting "  - "). */
    static String app(String sources) {
        return "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: app, namespace: argocd}\nspec:\n"
                + "  sources:" + (sources.startsWith(" [") ? "" : "\n") + sources
                + "  destination: {name: production, namespace: web}\n  syncPolicy: {automated: {prune: true}}\n";
    }

    /** The repo as a source with ref: values, as Argo CD's documentation writes it. */
    static final String VALUES_REF = "  - repoURL: " + ArgoFixture.REPO_URL + "\n    targetRevision: HEAD\n    ref: values\n";

    @Test
    void aChartOfThisRepoReadsValueFilesOfTheRepoThroughARefInTheOrderWritten() {
        DesiredState s = parse(app("  - repoURL: " + ArgoFixture.REPO_URL + "\n    path: helm-guestbook\n    helm:\n"
                + "      valueFiles: [values-production.yaml, $values/envs/prod/values.yaml]\n      values: 'replicaCount: 4'\n" + VALUES_REF));
        assertEquals(List.of(), ArgoFixture.errors(s));
        Application app = s.apps().get("app");
        assertTrue(app.valid(), app.diagnostics().toString());
        var helm = app.render().helm();
        assertEquals("helm-guestbook", helm.chartPath());
        assertEquals(List.of("helm-guestbook/values-production.yaml", "envs/prod/values.yaml", ".windlass/argocd/app/values.yaml"),
                helm.valuesFiles(), "the chart's file, the repo's file through $values, then the inline values, as Argo CD passes them");
        assertEquals("argocd/apps/app.yaml:6:5", app.render().at().toString(), "a render's problems are said at the source that renders");
        assertTrue(ArgoFixture.warnings(s).stream().anyMatch(w -> w.startsWith("argocd/apps/app.yaml:") && w.contains("sources[1].targetRevision 'HEAD'")),
                "the ref source's targetRevision is named as ignored: " + ArgoFixture.warnings(s));
    }

    @Test
    void aChartOfAChartRepositoryReadsValueFilesOfThisRepoThenItsInlineValues() {
        DesiredState s = parse(app("  - repoURL: https://stefanprodan.github.io/podinfo\n    chart: podinfo\n    targetRevision: 6.14.1\n"
                + "    helm:\n      valueFiles: [$values/envs/prod/values.yaml]\n      valuesObject: {replicaCount: 5}\n" + VALUES_REF));
        assertEquals(List.of(), ArgoFixture.errors(s));
        var helm = s.apps().get("app").render().helm();
        assertEquals(List.of("https://stefanprodan.github.io/podinfo", "podinfo", "6.14.1", ""),
                List.of(helm.repoURL(), helm.chart(), helm.version(), helm.values()));
        assertEquals(List.of("envs/prod/values.yaml", ".windlass/argocd/app/values.yaml"), helm.valuesFiles());
        assertEquals("replicaCount: 5\n", s.apps().get("app").render().flux().files().get(".windlass/argocd/app/values.yaml"),
                "the inline values are a file of their own, read after the repo's");
    }

    @Test
    void severalPlainDirectoriesAreOneApplicationWithTheObjectsOfEach() {
        String more = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {a: b}\n";
        DesiredState s = parse(app("  - {repoURL: " + ArgoFixture.REPO_URL + ", path: guestbook}\n"
                + "  - {repoURL: " + ArgoFixture.REPO_URL + ", path: config, name: settings}\n"), "config/settings.yaml", more);
        assertEquals(List.of(), ArgoFixture.errors(s));
        Application app = s.apps().get("app");
        assertNull(app.render(), "plain directories are read, not rendered");
        assertEquals(List.of("ConfigMap/settings", "Deployment/guestbook-ui", "Namespace/web", "Service/guestbook-ui"),
                app.manifests().stream().map(m -> m.ref().kind() + "/" + m.ref().name()).sorted().toList());
        assertEquals("guestbook", app.sourcePath());
    }

    @Test
    void anObjectTwoSourcesPrintIsAnErrorNamingBoth() {
        DesiredState s = parse(app("  - {repoURL: " + ArgoFixture.REPO_URL + ", path: guestbook}\n"
                + "  - {repoURL: " + ArgoFixture.REPO_URL + ", path: copy}\n"), "copy/svc.yaml", """
                apiVersion: v1
                kind: Service
                metadata: {name: guestbook-ui}
                spec: {ports: [{port: 80}]}
                """);
        assertEquals(List.of("copy/svc.yaml:1:1: Service web/guestbook-ui is printed by two sources of application app: path guestbook at"
                + " guestbook/guestbook-ui-svc.yaml:1:1, and path copy here; Argo CD would apply one over the other: keep it in one source"),
                ArgoFixture.errors(s));
        assertFalse(s.apps().get("app").valid());
        assertTrue(s.apps().get("guestbook").valid(), "the others go on");
    }

    static Stream<Arguments> problems() {
        String chart = "  - repoURL: " + ArgoFixture.REPO_URL + "\n    path: helm-guestbook\n    helm:\n      valueFiles: [";
        return Stream.of(
                Arguments.of(chart + "$prod/envs/prod/values.yaml]\n" + VALUES_REF,
                        "argocd/apps/app.yaml:9:20: Application.spec.sources[0].helm.valueFiles '$prod/envs/prod/values.yaml': $prod names no"
                                + " source of spec.sources (refs: values); give a source of this repo ref: prod, or fix the name"),
                Arguments.of(chart + "values.yaml, $values/envs/prod/values.yaml]\n" + VALUES_REF.replace(ArgoFixture.REPO_URL, "https://github.com/org/config.git"),
                        "argocd/apps/app.yaml:9:33: Application.spec.sources[0].helm.valueFiles '$values/envs/prod/values.yaml': $values is"
                                + " the source at argocd/apps/app.yaml:10:5, of 'https://github.com/org/config.git', which is not this repo;"
                                + " Windlass reads only this repo's files (Settings.spec.argocd.repoURLs): bring the values file into this repo,"
                                + " or keep this Application on Argo CD"),
                Arguments.of(chart + "$values/../etc/passwd]\n" + VALUES_REF,
                        "argocd/apps/app.yaml:9:20: Application.spec.sources[0].helm.valueFiles '$values/../etc/passwd' leaves the repo;"
                                + " give a file inside it"),
                Arguments.of(chart + "$values/envs/staging/values.yaml]\n" + VALUES_REF,
                        "argocd/apps/app.yaml:9:20: Application.spec.sources[0].helm.valueFiles '$values/envs/staging/values.yaml' does not"
                                + " exist (envs/staging/values.yaml); give a file from the repo's root after $ref/, or set ignoreMissingValueFiles: true"),
                Arguments.of(chart + "$values]\n" + VALUES_REF,
                        "argocd/apps/app.yaml:9:20: Application.spec.sources[0].helm.valueFiles '$values' names no file: write $values/ and"
                                + " the file's path from the repo's root"),
                Arguments.of("  - {repoURL: https://stefanprodan.github.io/podinfo, chart: podinfo, targetRevision: 6.14.1, helm: {valueFiles: [values-prod.yaml]}}\n",
                        "argocd/apps/app.yaml:6:115: Application.spec.sources[0].helm.valueFiles 'values-prod.yaml' would be a file of the"
                                + " chart from a chart repository, which Windlass does not read yet"),
                Arguments.of(VALUES_REF + VALUES_REF.replace("HEAD", "main"),
                        "argocd/apps/app.yaml:11:10: Application.spec.sources[1].ref 'values' is also the ref of the source at"
                                + " argocd/apps/app.yaml:8:10; give each source its own ref"),
                Arguments.of(VALUES_REF,
                        "argocd/apps/app.yaml:6:3: Application.spec.sources has only sources with ref and no path or chart, which render nothing;"
                                + " add the source to render, with path or chart"),
                Arguments.of(VALUES_REF + "    helm: {releaseName: web}\n",
                        "argocd/apps/app.yaml:9:11: Application.spec.sources[0].helm is never read: this source has a ref and no path or"
                                + " chart, so it renders nothing; remove it, or give the source a path"),
                Arguments.of("  - {repoURL: " + ArgoFixture.REPO_URL + ", path: guestbook}\n  - {repoURL: " + ArgoFixture.REPO_URL
                                + ", path: kustomize-guestbook}\n",
                        "argocd/apps/app.yaml:6:3: Application.spec.sources[1] is a Kustomize build (argocd/apps/app.yaml:7:5), and"
                                + " Application.spec.sources[0] renders objects too (argocd/apps/app.yaml:6:5); Windlass renders a chart or a"
                                + " kustomization alone in an Application for now (several plain directories work together): give it an"
                                + " Application of its own"),
                Arguments.of("  - {repoURL: " + ArgoFixture.REPO_URL + ", path: guestbook, name: web}\n  - {repoURL: " + ArgoFixture.REPO_URL
                                + ", path: config, name: web}\n",
                        "argocd/apps/app.yaml:7:88: Application.spec.sources[1].name 'web' is also the name of the source at"
                                + " argocd/apps/app.yaml:6:91; give each source its own name"),
                Arguments.of(("  - {repoURL: " + ArgoFixture.REPO_URL + ", path: guestbook}\n").repeat(ArgoApplicationReader.MAX_SOURCES + 1),
                        "argocd/apps/app.yaml:6:3: Application.spec.sources lists 21 sources, more than Windlass reads in one Application (20);"
                                + " split them into several Applications"),
                Arguments.of(" []\n",
                        "argocd/apps/app.yaml:5:12: Application.spec.sources lists no source; give at least one, with path or chart"));
    }

    @ParameterizedTest
    @MethodSource("problems")
    void eachProblemIsAnErrorAtItsPlaceThatHoldsOnlyItsApplication(String sources, String expected) {
        DesiredState s = parse(app(sources), "config/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\n");
        List<String> errors = ArgoFixture.errors(s);
        assertTrue(errors.stream().anyMatch(e -> e.startsWith(expected)), "expected " + expected + "\nbut got " + errors);
        Application held = s.apps().get("app");
        if (held != null) assertFalse(held.valid(), "the application of the Argo CD Application is held");
        for (String other : List.of("root", "guestbook", "kustomize-guestbook", "helm-guestbook")) {
            assertTrue(s.apps().get(other).valid(), other + " goes on: " + s.apps().get(other).diagnostics());
        }
    }

    @Test
    void sourceAndSourcesTogetherIsAnErrorThatSaysArgoCdIgnoresSource() {
        String app = app("  - {repoURL: " + ArgoFixture.REPO_URL + ", path: guestbook}\n")
                .replace("  sources:\n", "  source: {repoURL: " + ArgoFixture.REPO_URL + ", path: kustomize-guestbook}\n  sources:\n");
        DesiredState s = parse(app);
        assertEquals(List.of("argocd/apps/app.yaml:5:11: Application.spec gives both source and sources; Argo CD then reads spec.sources"
                + " and ignores spec.source: move spec.source into spec.sources as one more item, or remove one of them"), ArgoFixture.errors(s));
        assertNull(s.apps().get("app"), "nothing is built of it");
    }

    @Test
    void aRefInOneSourceOrValuesOfAnotherSourceThereAreErrorsThatSayToWriteSources() {
        DesiredState s = parse(ArgoApplicationParseTest.app("helm-guestbook", "    ref: values\n    helm: {valueFiles: [$values/envs/prod/values.yaml]}\n", ""));
        assertEquals(List.of(
                "argocd/apps/app.yaml:8:10: Application.spec.source.ref names a source for the value files of another source of spec.sources;"
                        + " one spec.source has no other: remove it, or write spec.sources",
                "argocd/apps/app.yaml:9:25: Application.spec.source.helm.valueFiles '$values/envs/prod/values.yaml' reads the files of another"
                        + " source, which only spec.sources has: write spec.sources, with a source of this repo that has ref: values"),
                ArgoFixture.errors(s));
    }

    @Test
    void anApplicationSetsTemplateOfSourcesMakesOneChartPerElementWithItsOwnValueFile() {
        String set = ArgoApplicationParseTest.set(ArgoApplicationParseTest.LIST, "gb-{{env}}", "{{env}}", "gb-{{env}}")
                .replace("      source: {repoURL: \"https://github.com/argoproj/argocd-example-apps.git\", path: guestbook}\n",
                        "      sources:\n        - repoURL: https://github.com/argoproj/argocd-example-apps.git\n          path: helm-guestbook\n"
                                + "          helm: {valueFiles: [\"$values/envs/{{env}}/values.yaml\"]}\n"
                                + "        - {repoURL: \"https://github.com/argoproj/argocd-example-apps.git\", ref: values}\n");
        DesiredState s = RepoParser.parse(ArgoFixture.repo(Map.of("argocd/apps/set.yaml", set, "envs/staging/values.yaml", "replicaCount: 1\n",
                "envs/qa/values.yaml", "replicaCount: 2\n")));
        assertEquals(List.of(), ArgoFixture.errors(s));
        assertEquals(List.of("envs/staging/values.yaml"), s.apps().get("gb-staging").render().helm().valuesFiles());
        assertEquals(List.of("envs/qa/values.yaml"), s.apps().get("gb-qa").render().helm().valuesFiles());
    }
}
