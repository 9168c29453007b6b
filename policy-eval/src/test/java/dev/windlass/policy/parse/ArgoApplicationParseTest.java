package dev.windlass.policy.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.DesiredState;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Each thing Windlass does not follow in an Argo CD Application: an error at its place, holding that application only. */
class ArgoApplicationParseTest {

    /** The example repo, adopted, with argocd/apps/app.yaml as given. */
    static DesiredState parse(String app, String... more) {
        Map<String, String> extra = new java.util.TreeMap<>();
        extra.put("argocd/apps/app.yaml", app);
        for (int i = 0; i < more.length; i += 2) extra.put(more[i], more[i + 1]);
        return RepoParser.parse(ArgoFixture.repo(extra));
    }

    /** An Application "app" of the folder {@code path}, whose spec.source goes on with {@code source} and spec with {@code spec}. */
    static String app(String path, String source, String spec) {
        return "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: app, namespace: argocd}\nspec:\n"
                + "  source:\n    repoURL: " + ArgoFixture.REPO_URL + "\n    path: " + path + "\n" + source
                + "  destination: {name: production, namespace: web}\n  syncPolicy: {automated: {prune: true}}\n" + spec;
    }

    static Stream<Arguments> problems() {
        return Stream.of(
                Arguments.of(app("guestbook", "", "  sources: [{repoURL: x}]\n"),
                        "argocd/apps/app.yaml:6:5: Application.spec gives both source and sources; Argo CD then reads spec.sources and"
                                + " ignores spec.source: move spec.source into spec.sources as one more item, or remove one of them"),
                Arguments.of(app("guestbook", "", "").replace(ArgoFixture.REPO_URL, "https://github.com/org/other.git"),
                        "argocd/apps/app.yaml:6:14: Application.spec.source.repoURL 'https://github.com/org/other.git' is not this repo"
                                + " (Settings.spec.argocd.repoURLs: https://github.com/argoproj/argocd-example-apps.git); Windlass reads"
                                + " Applications of this repo only, for now: list this repo's addresses in Settings.spec.argocd.repoURLs, or"
                                + " bring the other repo's files into this one"),
                Arguments.of(app("guestbook", "    plugin: {name: kasane}\n", ""),
                        "argocd/apps/app.yaml:8:13: Application.spec.source.plugin is not supported by Windlass yet: Windlass runs no config"
                                + " management plugins; render with kustomize or helm, or keep this Application on Argo CD"),
                Arguments.of(app("nowhere", "", ""),
                        "argocd/apps/app.yaml:7:11: Application.spec.source.path 'nowhere' does not exist in the repo; give a folder of it"),
                Arguments.of(app("../etc", "", ""),
                        "argocd/apps/app.yaml:7:11: Application.spec.source.path '../etc' leaves the repo; give a folder inside it"),
                Arguments.of(app("guestbook", "", "").replace("{name: production, namespace: web}", "{name: staging, namespace: web}"),
                        "argocd/apps/app.yaml:8:23: Application.spec.destination.name 'staging' is no Windlass Cluster; known: in-cluster,"
                                + " production; name a Cluster, or add one by that name"),
                Arguments.of(app("guestbook", "", "").replace("{name: production, namespace: web}", "{server: \"https://10.0.0.1:6443\"}"),
                        "argocd/apps/app.yaml:8:25: Application.spec.destination.server 'https://10.0.0.1:6443' is no Windlass Cluster's: give"
                                + " the Cluster it means the annotation argocd.windlass.dev/server: https://10.0.0.1:6443, or use destination.name"),
                Arguments.of(app("guestbook", "", "").replace("{name: production, namespace: web}", "{name: production, server: \"https://x\"}"),
                        "argocd/apps/app.yaml:8:16: Application.spec.destination gives both name and server; give one, as Argo CD requires"),
                Arguments.of(app("guestbook", "", "").replace("namespace: web}", "namespace: Web_Shop}"),
                        "argocd/apps/app.yaml:8:46: Application.spec.destination.namespace 'Web_Shop' is not a valid namespace name"),
                Arguments.of(app("guestbook", "    kustomize: {namePrefix: prod-}\n", ""),
                        "argocd/apps/app.yaml:8:16: Application.spec.source.kustomize is for a kustomization, but guestbook is a plain directory"),
                Arguments.of(app("guestbook", "    helm: {releaseName: web}\n", ""),
                        "argocd/apps/app.yaml:8:11: Application.spec.source.helm is for a chart, but guestbook is a plain directory"),
                Arguments.of(app("kustomize-guestbook", "    directory: {recurse: true}\n", ""),
                        "argocd/apps/app.yaml:8:16: Application.spec.source.directory is for a plain directory, but kustomize-guestbook is a"
                                + " Kustomize folder (kustomization.yaml)"),
                Arguments.of(app("kustomize-guestbook", "    kustomize: {patches: [{patch: x}]}\n", ""),
                        "argocd/apps/app.yaml:8:26: Application.spec.source.kustomize.patches is not supported by Windlass yet: write them in"
                                + " the kustomization of the path (patches:)"),
                Arguments.of(app("kustomize-guestbook", "    kustomize: {images: [\"nginx:\"]}\n", ""),
                        "argocd/apps/app.yaml:8:25: Application.spec.source.kustomize.images 'nginx:' is not an image as Argo CD writes them"),
                Arguments.of(app("kustomize-guestbook", "    kustomize: {namePrefx: prod-}\n", ""),
                        "argocd/apps/app.yaml:8:17: unknown field 'namePrefx' in Application.spec.source.kustomize; known fields: "),
                Arguments.of(app("helm-guestbook", "    helm: {fileParameters: [{name: config, path: files/config.json}]}\n", ""),
                        "argocd/apps/app.yaml:8:28: Application.spec.source.helm.fileParameters is not supported by Windlass yet: write the"
                                + " values in valuesObject or a values file of the chart's folder"),
                Arguments.of(app("helm-guestbook", "    helm: {valueFiles: [values-prod.yaml]}\n", ""),
                        "argocd/apps/app.yaml:8:25: Application.spec.source.helm.valueFiles 'values-prod.yaml' does not exist"
                                + " (helm-guestbook/values-prod.yaml); give a file relative to the chart's folder, or set ignoreMissingValueFiles: true"),
                Arguments.of(app("helm-guestbook", "    helm: {valueFiles: [$values/charts/web.yaml]}\n", ""),
                        "argocd/apps/app.yaml:8:25: Application.spec.source.helm.valueFiles '$values/charts/web.yaml' reads the files of"
                                + " another source, which only spec.sources has: write spec.sources, with a source of this repo that has ref: values"),
                Arguments.of(app("helm-guestbook", "    helm:\n      parameters: [{name: \"ingress.annotations.kubernetes\\\\.io/tls-acme\", value: \"true\"}]\n", ""),
                        "argocd/apps/app.yaml:9:27: Application.spec.source.helm.parameters name 'ingress.annotations.kubernetes\\.io/tls-…'"
                                + " is not read yet: Windlass reads dotted names (a.b.c) only, without list indexes or escapes; write the value in valuesObject"),
                Arguments.of(app("helm-guestbook", "    helm: {values: \"[1, 2]\"}\n", ""),
                        "argocd/apps/app.yaml:8:20: Application.spec.source.helm.values must hold a YAML mapping of values"),
                Arguments.of(app("helm-guestbook", "    helm: {releaseName: Guest_Book}\n", ""),
                        "argocd/apps/app.yaml:8:25: Application.spec.source.helm.releaseName 'Guest_Book' is not a valid release name"),
                Arguments.of(app("guestbook", "    directory: {include: \"{a,b\"}\n", ""),
                        "argocd/apps/app.yaml:8:26: Application.spec.source.directory.include '{a,b' is not a valid glob: close every '[' and '{'"),
                Arguments.of(app("guestbook", "    directory: {jsonnet: {tlas: [{name: a, value: b}]}}\n", ""),
                        "argocd/apps/app.yaml:8:26: Application.spec.source.directory.jsonnet is not supported by Windlass yet: it reads YAML only"),
                Arguments.of(app("guestbook", "", "").replace("{automated: {prune: true}}", "{automated: {prune: true}, syncOptions: [Replace=true]}"),
                        "argocd/apps/app.yaml:9:55: Application.spec.syncPolicy.syncOptions Replace=true is not supported by Windlass yet"),
                Arguments.of(app("guestbook", "", "").replace("{automated: {prune: true}}", "{automated: {prune: true}, syncOptions: [Frobnicate=true]}"),
                        "argocd/apps/app.yaml:9:55: Application.spec.syncPolicy.syncOptions 'Frobnicate=true' is not one Windlass reads"),
                Arguments.of(app("guestbook", "", "").replace("{automated: {prune: true}}", "{automated: {prune: true}, managedNamespaceMetadata: {labels: {a: b}}}"),
                        "argocd/apps/app.yaml:9:68: Application.spec.syncPolicy.managedNamespaceMetadata is not supported by Windlass yet"),
                Arguments.of(app("guestbook", "", "  ignoreDifferences: [{kind: Deployment, jqPathExpressions: [.spec.replicas]}]\n"),
                        "argocd/apps/app.yaml:10:61: Application.spec.ignoreDifferences[0].jqPathExpressions is not supported by Windlass yet:"
                                + " write the fields as jsonPointers (like /spec/replicas)"),
                Arguments.of(app("guestbook", "", "").replace("argoproj.io/v1alpha1", "argoproj.io/v1beta1"),
                        "argocd/apps/app.yaml:1:13: apiVersion 'argoproj.io/v1beta1' of Application is not supported; Windlass reads argoproj.io/v1alpha1"),
                Arguments.of(app("guestbook", "    chart: podinfo\n", ""),
                        "argocd/apps/app.yaml:6:5: Application.spec.source.targetRevision is required with chart"));
    }

    @ParameterizedTest
    @MethodSource("problems")
    void eachProblemIsAnErrorAtItsPlaceThatHoldsOnlyItsApplication(String app, String expected) {
        DesiredState s = parse(app);
        List<String> errors = ArgoFixture.errors(s);
        assertTrue(errors.stream().anyMatch(e -> e.startsWith(expected)), "expected " + expected + "\nbut got " + errors);
        Application held = s.apps().get("app");
        if (held != null) {
            assertFalse(held.valid(), "the application of the Argo CD Application is held");
        }
        for (String other : List.of("root", "guestbook", "kustomize-guestbook", "helm-guestbook")) {
            assertTrue(s.apps().get(other).valid(), other + " goes on: " + s.apps().get(other).diagnostics());
        }
    }

    @Test
    void aFileThatIsNoValidYamlHoldsTheParentThatReadsIt() {
        DesiredState s = parse(app("guestbook", "", "  destination: {name: production}\n"));
        assertEquals(List.of("argocd/apps/app.yaml:10:3: duplicate key 'destination' (first at line 8); keep only one"), ArgoFixture.errors(s));
        assertFalse(s.apps().get("root").valid(), "the root reads the file, as Argo CD would, and fails on it");
        for (String other : List.of("guestbook", "kustomize-guestbook", "helm-guestbook")) assertTrue(s.apps().get(other).valid());
    }

    @Test
    void aChartOfAChartRepositoryIsRenderedByNameAndVersionWithItsInlineValues() {
        DesiredState s = parse(app("x", "", "").replace("    path: x\n", "    chart: podinfo\n    targetRevision: 6.5.4\n    helm:\n"
                + "      valuesObject: {replicaCount: 3}\n").replace(ArgoFixture.REPO_URL, "https://stefanprodan.github.io/podinfo"),
                "argocd/apps/oci.yaml", app("x", "", "").replace("    path: x\n", "    chart: podinfo\n    targetRevision: \"6.x\"\n")
                        .replace(ArgoFixture.REPO_URL, "ghcr.io/stefanprodan/charts").replace("name: app,", "name: oci-app,"));
        assertEquals(List.of(), ArgoFixture.errors(s));
        var helm = s.apps().get("app").render().helm();
        assertEquals(List.of("https://stefanprodan.github.io/podinfo", "podinfo", "6.5.4", "replicaCount: 3\n"),
                List.of(helm.repoURL(), helm.chart(), helm.version(), helm.values()));
        var oci = s.apps().get("oci-app").render().helm();
        assertEquals(List.of("oci://ghcr.io/stefanprodan/charts", "podinfo", "6.x"), List.of(oci.repoURL(), oci.chart(), oci.version()),
                "an OCI registry is written without oci:// in Argo CD");
    }

    @Test
    void aDirectoryReadsItsOwnFilesUnlessItRecursesAndIncludeAndExcludePickAmongThem() {
        String nested = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: nested}\n";
        DesiredState flat = parse(app("guestbook", "", ""), "guestbook/extra/cm.yaml", nested);
        assertEquals(List.of("guestbook-ui", "guestbook-ui", "web"), names(flat.apps().get("app")));
        DesiredState deep = parse(app("guestbook", "    directory: {recurse: true, exclude: \"*-svc.yaml\"}\n", ""), "guestbook/extra/cm.yaml", nested);
        assertEquals(List.of("guestbook-ui", "nested", "web"), names(deep.apps().get("app")));
        DesiredState picked = parse(app("guestbook", "    directory: {recurse: true, include: \"{extra/*,*-svc.yaml}\"}\n", ""), "guestbook/extra/cm.yaml", nested);
        assertEquals(List.of("guestbook-ui", "nested", "web"), names(picked.apps().get("app")));
        assertEquals(List.of("ConfigMap", "Namespace", "Service"), picked.apps().get("app").manifests().stream().map(m -> m.ref().kind()).sorted().toList(),
                "the Deployment's file is neither in extra/ nor a -svc.yaml");
    }

    private static List<String> names(Application app) {
        return app.manifests().stream().map(m -> m.ref().name()).sorted().toList();
    }

    @Test
    void applicationsThatHoldOneAnotherInARingAreErrorsNamingTheRing() {
        String a = app("argocd/b", "", "").replace("name: app,", "name: ring-a,");
        String b = app("argocd/a", "", "").replace("name: app,", "name: ring-b,");
        DesiredState s = RepoParser.parse(ArgoFixture.repo(Map.of("argocd/a/a.yaml", a, "argocd/b/b.yaml", b)));
        List<String> errors = ArgoFixture.errors(s);
        assertTrue(errors.contains("argocd/a/a.yaml:1:1: Argo CD Applications hold one another in a ring, so none of them is ever the first to"
                + " apply: ring-a (argocd/a/a.yaml:1:1) -> ring-b (argocd/b/b.yaml:1:1) -> ring-a (argocd/a/a.yaml:1:1); take one of them"
                + " out of the other's source"), errors.toString());
        assertFalse(s.apps().get("ring-a").valid());
        assertFalse(s.apps().get("ring-b").valid());
        assertTrue(s.apps().get("guestbook").valid());
    }

    @Test
    void applicationsDeeperThanTheLimitAreErrorsNamingTheChain() {
        Map<String, String> files = new java.util.TreeMap<>();
        // root -> argocd/apps/level-1 -> argocd/level-1/level-2 -> ... -> level-6
        for (int i = 1; i <= ArgoImports.MAX_DEPTH + 1; i++) {
            String folder = i == 1 ? "argocd/apps" : "argocd/level-" + (i - 1);
            files.put(folder + "/level-" + i + ".yaml", app("argocd/level-" + i, "", "").replace("name: app,", "name: level-" + i + ","));
        }
        files.put("argocd/level-" + (ArgoImports.MAX_DEPTH + 1) + "/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: deep}\n");
        DesiredState s = RepoParser.parse(ArgoFixture.repo(files));
        List<String> errors = ArgoFixture.errors(s);
        assertEquals(List.of("argocd/level-5/level-6.yaml:1:1: Argo CD Application is 6 levels of Applications deep (app of apps), more than"
                + " Windlass reads (5): root (argocd/root.yaml:1:1) -> level-1 (argocd/apps/level-1.yaml:1:1) -> level-2"
                + " (argocd/level-1/level-2.yaml:1:1) -> level-3 (argocd/level-2/level-3.yaml:1:1) -> level-4 (argocd/level-3/level-4.yaml:1:1)"
                + " -> level-5 (argocd/level-4/level-5.yaml:1:1) -> level-6 (argocd/level-5/level-6.yaml:1:1); hold it from an Application"
                + " nearer the top"), errors);
        assertTrue(s.apps().get("level-5").valid());
        assertFalse(s.apps().get("level-6").valid());
    }

    static final String LIST = "    - list:\n        elements:\n          - {env: staging, replicas: \"1\"}\n          - env: qa\n            replicas: \"2\"\n";
    static final String CLUSTERS = "    - clusters:\n        selector: {matchLabels: {tier: prod}}\n        values: {namespace: \"guestbook-{{name}}\"}\n";

    /** An ApplicationSet of {@code generators} whose template's name, env label and namespace are as given. */
    static String set(String generators, String name, String env, String namespace) {
        return "apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata: {name: guestbooks, namespace: argocd}\nspec:\n  generators:\n"
                + generators + "  syncPolicy: {preserveResourcesOnDeletion: true}\n  template:\n    metadata:\n      name: '" + name + "'\n"
                + "      labels: {env: '" + env + "'}\n    spec:\n      project: default\n"
                + "      source: {repoURL: \"https://github.com/argoproj/argocd-example-apps.git\", path: guestbook}\n"
                + "      destination: {name: production, namespace: '" + namespace + "'}\n      syncPolicy: {automated: {prune: true}}\n";
    }

    @Test
    void anApplicationSetMakesOneApplicationPerElementAndPerSelectedCluster() {
        DesiredState s = RepoParser.parse(ArgoFixture.repo(Map.of("argocd/apps/set.yaml", set(LIST, "gb-{{env}}", "{{env}}", "gb-{{env}}"))));
        assertEquals(List.of(), ArgoFixture.errors(s));
        Application staging = s.apps().get("gb-staging");
        assertEquals("gb-staging", staging.namespace());
        assertEquals(Map.of("env", "staging", "argocd.windlass.dev/name", "gb-staging", "argocd.windlass.dev/applicationset", "guestbooks",
                "argocd.windlass.dev/parent", "root"), staging.labels());
        assertEquals("gb-qa", s.apps().get("gb-qa").namespace());
        assertEquals("argocd/apps/set.yaml:13:5", staging.location().toString(), "said at the template");
        assertTrue(ArgoFixture.warnings(s).contains("argocd/apps/set.yaml:11:15: warning: ApplicationSet.spec: accepted and ignored: syncPolicy"
                + " (Windlass removes an Application's objects as its prune says when the Application goes)"), ArgoFixture.warnings(s).toString());

        // The clusters generator: one set per Windlass Cluster its selector matches, with the Cluster's name and its values.
        String clusters = ArgoFixture.CLUSTERS.replace("metadata: {name: production}", "metadata: {name: production, labels: {tier: prod}}");
        DesiredState c = RepoParser.parse(ArgoFixture.repo(Map.of("windlass/clusters.yaml", clusters, "argocd/apps/set.yaml",
                set(CLUSTERS, "{{name}}-guestbook", "{{metadata.labels.tier}}", "{{values.namespace}}"))));
        assertEquals(List.of(), ArgoFixture.errors(c));
        assertEquals(List.of("guestbook", "helm-guestbook", "kustomize-guestbook", "production-guestbook", "root"), s(c),
                "in-cluster has no tier label");
        assertEquals("guestbook-production", c.apps().get("production-guestbook").namespace());
        assertEquals("prod", c.apps().get("production-guestbook").labels().get("env"));
    }

    @Test
    void anApplicationSetsUnknownParameterUnsupportedGeneratorAndFanOutAreErrorsAtTheirPlaces() {
        DesiredState unknown = RepoParser.parse(ArgoFixture.repo(Map.of("argocd/apps/set.yaml", set(LIST, "{{name}}-guestbook", "x", "web"))));
        assertEquals(List.of("argocd/apps/set.yaml:14:13: ApplicationSet template: {{name}} is no parameter of its generators (env, replicas);"
                + " name one of them"), ArgoFixture.errors(unknown));
        assertEquals(List.of("guestbook", "helm-guestbook", "kustomize-guestbook", "root"), s(unknown), "the set makes no Application");
        assertTrue(unknown.apps().get("guestbook").valid(), "the other Applications go on");

        DesiredState merge = RepoParser.parse(ArgoFixture.repo(Map.of("argocd/apps/set.yaml",
                set(LIST + "    - merge: {mergeKeys: [env]}\n", "gb-{{env}}", "x", "web"))));
        assertEquals(List.of("argocd/apps/set.yaml:11:14: ApplicationSet.spec.generators[1].merge is not supported by Windlass yet: Windlass reads"
                + " the list, clusters, git (directories, files) and matrix generators only, for now; write the Applications out, or keep this"
                + " ApplicationSet on Argo CD"),
                ArgoFixture.errors(merge));

        StringBuilder many = new StringBuilder("    - list:\n        elements:\n");
        for (int i = 0; i <= ArgoApplicationSetReader.MAX_APPLICATIONS; i++) many.append("          - {env: e").append(i).append("}\n");
        DesiredState fan = RepoParser.parse(ArgoFixture.repo(Map.of("argocd/apps/set.yaml", set(many.toString(), "gb-{{env}}", "x", "web"))));
        assertEquals(List.of("argocd/apps/set.yaml:6:5: ApplicationSet 'guestbooks' makes 101 Applications, more than Windlass makes from one"
                + " ApplicationSet (100); split it, or narrow its generators"), ArgoFixture.errors(fan));
    }

    /** An ApplicationSet of {@code generators} whose template reads the folder {@code path} to the Cluster {@code cluster}. */
    static String setOf(String generators, String name, String path, String cluster) {
        return "apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata: {name: folders}\nspec:\n  generators:\n" + generators
                + "  template:\n    metadata: {name: '" + name + "'}\n    spec:\n"
                + "      source: {repoURL: \"https://github.com/argoproj/argocd-example-apps.git\", path: '" + path + "'}\n"
                + "      destination: {name: '" + cluster + "', namespace: '" + name + "'}\n      syncPolicy: {automated: {prune: true}}\n";
    }

    @Test
    void aGitDirectoriesGeneratorMakesOneApplicationPerFolderOfThisRepoThatItsPatternsPick() {
        String git = "    - git:\n        repoURL: https://github.com/argoproj/argocd-example-apps.git\n        revision: HEAD\n        directories:\n"
                + "          - path: '*guestbook'\n          - {path: helm-guestbook, exclude: true}\n";
        DesiredState s = RepoParser.parse(ArgoFixture.repo(Map.of("argocd/apps/folders.yaml",
                setOf(git, "{{path.basename}}-git", "{{path}}", "production"))));
        assertEquals(List.of(), ArgoFixture.errors(s));
        assertEquals(List.of("guestbook", "guestbook-git", "helm-guestbook", "kustomize-guestbook", "kustomize-guestbook-git", "root"), s(s));
        assertEquals("kustomize-guestbook", s.apps().get("kustomize-guestbook-git").render().kustomize());

        DesiredState other = RepoParser.parse(ArgoFixture.repo(Map.of("argocd/apps/folders.yaml",
                setOf(git.replace("argoproj/argocd-example-apps.git", "org/other.git"), "{{path.basename}}-git", "{{path}}", "production"))));
        assertEquals(List.of("argocd/apps/folders.yaml:7:18: ApplicationSet git repoURL 'https://github.com/org/other.git' is not this repo;"
                + " Windlass reads folders of this repo only, for now: list its addresses in Settings.spec.argocd.repoURLs"), ArgoFixture.errors(other));
    }

    @Test
    void aMatrixCombinesTwoGeneratorsEverySetWithEvery() {
        String matrix = "    - matrix:\n        generators:\n          - git:\n              repoURL: https://github.com/argoproj/argocd-example-apps\n"
                + "              directories: [{path: guestbook}]\n          - clusters: {}\n";
        DesiredState s = RepoParser.parse(ArgoFixture.repo(Map.of("argocd/apps/matrix.yaml",
                setOf(matrix, "{{path.basename}}-{{name}}", "{{path}}", "{{name}}"))));
        assertEquals(List.of(), ArgoFixture.errors(s));
        assertEquals(List.of("in-cluster"), s.apps().get("guestbook-in-cluster").placement().clusterNames());
        assertEquals(List.of("production"), s.apps().get("guestbook-production").placement().clusterNames());

        DesiredState three = RepoParser.parse(ArgoFixture.repo(Map.of("argocd/apps/matrix.yaml",
                setOf(matrix + "          - list: {elements: [{a: b}]}\n", "{{path.basename}}-{{name}}", "{{path}}", "{{name}}"))));
        assertEquals(List.of("argocd/apps/matrix.yaml:7:9: ApplicationSet.spec.generators[0].matrix.generators must hold exactly two generators,"
                + " as in Argo CD"), ArgoFixture.errors(three));
    }

    private static List<String> s(DesiredState s) { return List.copyOf(s.apps().keySet()); }

    @Test
    void aResourceHookIsReadAsAHookWithItsPhaseWaveAndDeletePolicies() {
        DesiredState s = parse(app("guestbook", "", ""), "guestbook/migrate.yaml", """
                apiVersion: batch/v1
                kind: Job
                metadata:
                  generateName: migrate-
                  annotations: {argocd.argoproj.io/hook: PreSync, argocd.argoproj.io/sync-wave: "-2", argocd.argoproj.io/hook-delete-policy: "HookSucceeded,HookFailed"}
                spec: {template: {spec: {restartPolicy: Never, containers: [{name: m, image: alpine}]}}}
                """);
        assertTrue(s.apps().get("guestbook").valid(), ArgoFixture.errors(s).toString());
        var hook = s.apps().get("guestbook").manifests().stream().filter(m -> m.ref().kind().equals("Job")).findFirst().orElseThrow();
        assertEquals("migrate-", hook.ref().name());
        assertEquals(new dev.windlass.policy.model.Hook(java.util.Set.of(dev.windlass.policy.model.Hook.Phase.PreSync),
                java.util.EnumSet.allOf(dev.windlass.policy.model.Hook.Occasion.class), -2,
                java.util.Set.of(dev.windlass.policy.model.Hook.DeletePolicy.HookSucceeded, dev.windlass.policy.model.Hook.DeletePolicy.HookFailed),
                true, dev.windlass.policy.model.Hook.Source.ArgoCD), hook.hook());
    }

    @Test
    void anUnknownHookPhaseIsAnErrorAtTheObject() {
        DesiredState s = parse(app("guestbook", "", ""), "guestbook/migrate.yaml", """
                apiVersion: batch/v1
                kind: Job
                metadata:
                  name: migrate
                  annotations: {argocd.argoproj.io/hook: PreDelete}
                spec: {template: {spec: {restartPolicy: Never, containers: [{name: m, image: alpine}]}}}
                """);
        assertTrue(ArgoFixture.errors(s).contains("guestbook/migrate.yaml:1:1: annotation argocd.argoproj.io/hook on Job migrate names"
                + " 'PreDelete'; it must be PreSync, Sync, PostSync, SyncFail or Skip (several separated by commas). PreDelete and PostDelete"
                + " hooks are not run by Windlass"), ArgoFixture.errors(s).toString());
        assertFalse(s.apps().get("guestbook").valid());
    }

    @Test
    void anAppProjectIsNotApplied() {
        DesiredState s = RepoParser.parse(ArgoFixture.repo(Map.of("argocd/apps/project.yaml", """
                apiVersion: argoproj.io/v1alpha1
                kind: AppProject
                metadata: {name: default}
                spec: {}
                """)));
        assertEquals(List.of(), ArgoFixture.errors(s));
        assertEquals(List.of(), s.apps().get("root").manifests());
    }
}
