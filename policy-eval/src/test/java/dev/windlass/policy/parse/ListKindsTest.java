package dev.windlass.policy.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.RepoFiles;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.source.MapSnapshot;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Documents of kind {@code List} or {@code <Kind>List} are expanded into their items, as {@code kubectl apply} does
 *: each item is read like a document of its own and is reported at its own position.
 */
class ListKindsTest {

    /** kube-prometheus's {@code manifests/}, as its project publishes it, from the module's directory. */
    static final Path KUBE_PROMETHEUS = Path.of("..", "test-fixtures", "real-world", "kube-prometheus");

    static final String APP = """
            apiVersion: windlass.dev/v1alpha1
            kind: Application
            metadata: {name: web}
            spec:
              namespace: web
              placement: {clusterNames: [eu-1]}
            """;

    @Test
    void kubePrometheusListsBecomeOneManifestPerItemAtTheItemsOwnPosition() throws IOException {
        DesiredState s = RepoParser.parse(kubePrometheusAsOneApp());
        assertEquals(List.of(), errors(s));
        Application app = s.apps().get("monitoring");
        String dir = "apps/monitoring/manifests/";

        assertEquals(List.of(
                "RoleBinding.rbac.authorization.k8s.io default/prometheus-k8s at " + dir + "prometheus-roleBindingSpecificNamespaces.yaml:3:3",
                "RoleBinding.rbac.authorization.k8s.io kube-system/prometheus-k8s at " + dir + "prometheus-roleBindingSpecificNamespaces.yaml:22:3",
                "RoleBinding.rbac.authorization.k8s.io monitoring/prometheus-k8s at " + dir + "prometheus-roleBindingSpecificNamespaces.yaml:41:3"),
                located(app, dir + "prometheus-roleBindingSpecificNamespaces.yaml"));
        assertEquals(List.of(
                "Role.rbac.authorization.k8s.io default/prometheus-k8s at " + dir + "prometheus-roleSpecificNamespaces.yaml:3:3",
                "Role.rbac.authorization.k8s.io kube-system/prometheus-k8s at " + dir + "prometheus-roleSpecificNamespaces.yaml:48:3",
                "Role.rbac.authorization.k8s.io monitoring/prometheus-k8s at " + dir + "prometheus-roleSpecificNamespaces.yaml:93:3"),
                located(app, dir + "prometheus-roleSpecificNamespaces.yaml"));

        List<String> dashboards = located(app, dir + "grafana-dashboardDefinitions.yaml");
        assertEquals(33, dashboards.size(), "one ConfigMap per item of the ConfigMapList");
        assertEquals("ConfigMap monitoring/grafana-dashboard-alertmanager-overview at " + dir + "grafana-dashboardDefinitions.yaml:3:3", dashboards.get(0));
        assertEquals("ConfigMap monitoring/grafana-dashboard-apiserver at " + dir + "grafana-dashboardDefinitions.yaml:366:3", dashboards.get(1));
        assertEquals("ConfigMap monitoring/grafana-dashboard-workload-total at " + dir + "grafana-dashboardDefinitions.yaml:24542:3", dashboards.get(32));
        assertTrue(app.manifests().stream().noneMatch(m -> m.ref().kind().endsWith("List")), "a list is never an object of its own");
    }

    @Test
    void anItemWithoutANameIsAnErrorAtTheItem() {
        String list = """
                apiVersion: v1
                kind: ConfigMapList
                items:
                - apiVersion: v1
                  kind: ConfigMap
                  metadata: {name: flags}
                - apiVersion: v1
                  kind: ConfigMap
                  metadata: {labels: {tier: web}}
                """;
        DesiredState s = RepoParser.parse(repo(list));
        assertEquals(List.of("apps/web/manifests/list.yaml:7:3: object has no metadata.name; every Kubernetes object needs apiVersion, kind and metadata.name"),
                errors(s));
        assertFalse(s.apps().get("web").valid(), "nothing of web is applied");
    }

    @Test
    void aV1ListHoldsObjectsOfDifferentKindsEachReadLikeADocument() {
        String list = """
                apiVersion: v1
                kind: List
                metadata: {resourceVersion: ""}
                items:
                  - apiVersion: v1
                    kind: ServiceAccount
                    metadata:
                      name: reader
                      annotations: {windlass.dev/wave: "-1"}
                  - {apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRole, metadata: {name: reader, namespace: web}, rules: []}
                """;
        DesiredState s = RepoParser.parse(repo(list));
        assertEquals(List.of(), errors(s));
        Application web = s.apps().get("web");
        assertEquals(List.of(
                "ServiceAccount web/reader at apps/web/manifests/list.yaml:5:5",
                "ClusterRole.rbac.authorization.k8s.io reader at apps/web/manifests/list.yaml:10:5"),
                located(web, "apps/web/manifests/list.yaml"));
        Manifest account = web.manifests().stream().filter(m -> m.ref().kind().equals("ServiceAccount")).findFirst().orElseThrow();
        assertEquals(-1, account.wave(), "windlass.dev/* annotations of an item are read");
        assertEquals("web", ((Map<?, ?>) account.body().get("metadata")).get("namespace"), "the namespace is defaulted in the body too");
        assertEquals(List.of("apps/web/manifests/list.yaml:10:5: warning: ClusterRole reader is cluster-scoped; its metadata.namespace 'web' is ignored"),
                s.diagnostics().stream().map(Object::toString).toList());
    }

    @Test
    void anItemThatIsNotAnObjectIsAnErrorSayingWhatToDo() {
        String list = """
                apiVersion: v1
                kind: List
                items:
                - just a string
                - apiVersion: v1
                  kind: ConfigMapList
                  items: []
                - apiVersion: windlass.dev/v1alpha1
                  kind: Cluster
                  metadata: {name: eu-2}
                - apiVersion: v1
                  kind: ConfigMap
                  metadata: {name: flags}
                """;
        DesiredState s = RepoParser.parse(repo(list));
        assertEquals(List.of(
                "apps/web/manifests/list.yaml:4:3: item 1 of List is not a mapping; each item must be a Kubernetes object with apiVersion, kind and metadata.name",
                "apps/web/manifests/list.yaml:5:3: item 2 of List is itself a list (ConfigMapList); lists do not nest: move its items up into List's items, "
                        + "or make it a document of its own (---)",
                "apps/web/manifests/list.yaml:8:3: item 3 of List is a Windlass Cluster; Windlass objects are read only as documents of their own: "
                        + "move it out of the list into its own document (---)"),
                errors(s));
        assertEquals(List.of("eu-1"), List.copyOf(s.clusters().keySet()), "a Cluster in a list is not a cluster");
        assertFalse(s.apps().get("web").valid());
    }

    @Test
    void anEmptyListHoldsNothingAndIsNoError() {
        DesiredState s = RepoParser.parse(RepoFiles.inline("clusters/eu-1.yaml", RepoParserTest.CLUSTER, "apps/web/app.yaml", APP,
                "apps/web/manifests/list.yaml", "apiVersion: v1\nkind: List\nitems: []\n",
                "apps/web/manifests/other.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: other}\n"));
        assertEquals(List.of(), s.diagnostics().stream().map(Object::toString).toList());
        assertTrue(s.apps().get("web").valid());
        assertEquals(List.of(), located(s.apps().get("web"), "apps/web/manifests/list.yaml"));
    }

    @Test
    void aDefinitionInAListMakesItsKindClusterScoped() {
        String list = """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinitionList
                items:
                - apiVersion: apiextensions.k8s.io/v1
                  kind: CustomResourceDefinition
                  metadata: {name: widgets.example.com}
                  spec: {group: example.com, scope: Cluster, names: {kind: Widget, plural: widgets}}
                ---
                apiVersion: example.com/v1
                kind: Widget
                metadata: {name: w}
                """;
        DesiredState s = RepoParser.parse(repo(list));
        assertEquals(List.of(), s.diagnostics().stream().map(Object::toString).toList());
        assertEquals(List.of(
                "CustomResourceDefinition.apiextensions.k8s.io widgets.example.com at apps/web/manifests/list.yaml:4:3",
                "Widget.example.com w at apps/web/manifests/list.yaml:9:1"),
                located(s.apps().get("web"), "apps/web/manifests/list.yaml"));
    }

    @Test
    void itemsOfAnUnchangedFileAreNotReadAgainAndTheirErrorsAreSaidOnEveryPass() {
        String list = """
                apiVersion: v1
                kind: List
                items:
                - {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}
                - {apiVersion: v1, kind: ConfigMap, metadata: {name: b}}
                - {apiVersion: v1, kind: ConfigMap, metadata: {name: c, annotations: {windlass.dev/wave: soon}}}
                - 42
                """;
        var repo = repo(list);
        ParseCache cache = new ParseCache();
        for (int pass = 1; pass <= 2; pass++) {
            DesiredState s = RepoParser.parse(repo, cache);
            assertEquals(RepoParser.parse(repo), s, "pass " + pass + ": the cache changes nothing");
            assertEquals(List.of(
                    "apps/web/manifests/list.yaml:6:3: annotation windlass.dev/wave is 'soon'; it must be a whole number such as \"-1\" or \"2\"",
                    "apps/web/manifests/list.yaml:7:3: item 4 of List is not a mapping; each item must be a Kubernetes object with apiVersion, kind and metadata.name"),
                    errors(s), "pass " + pass);
            assertEquals(pass == 1 ? 3 : 0, cache.manifestsReadLastPass(), "pass " + pass + ": each item is read once");
        }
        var changedApp = RepoFiles.inline("clusters/eu-1.yaml", RepoParserTest.CLUSTER, "apps/web/app.yaml", APP.replace("namespace: web", "namespace: shop"),
                "apps/web/manifests/list.yaml", list);
        assertEquals(RepoParser.parse(changedApp), RepoParser.parse(changedApp, cache));
        assertEquals(3, cache.manifestsReadLastPass(), "the app's namespace changed: every item is read again");
    }

    /** A repo with cluster eu-1 and application web, whose manifests folder holds {@code list.yaml}. */
    private static MapSnapshot repo(String list) {
        return RepoFiles.inline("clusters/eu-1.yaml", RepoParserTest.CLUSTER, "apps/web/app.yaml", APP, "apps/web/manifests/list.yaml", list);
    }

    /** kube-prometheus's whole {@code manifests/} folder (CRDs in {@code setup/} included) as application monitoring's manifests. */
    private static MapSnapshot kubePrometheusAsOneApp() throws IOException {
        Map<String, byte[]> files = new TreeMap<>();
        files.put("clusters/eu-1.yaml", RepoParserTest.CLUSTER.getBytes(StandardCharsets.UTF_8));
        files.put("apps/monitoring/app.yaml", APP.replace("name: web", "name: monitoring").replace("namespace: web", "namespace: monitoring")
                .getBytes(StandardCharsets.UTF_8));
        try (Stream<Path> walk = Files.walk(KUBE_PROMETHEUS)) {
            for (Path p : walk.filter(Files::isRegularFile).toList()) {
                files.put("apps/monitoring/manifests/" + KUBE_PROMETHEUS.relativize(p).toString().replace('\\', '/'), Files.readAllBytes(p));
            }
        }
        assertTrue(files.size() > 90, "kube-prometheus's manifests are at " + KUBE_PROMETHEUS.toAbsolutePath());
        return new MapSnapshot("0000000000000000000000000000000000000003", files);
    }

    /** The manifests of one file as {@code ref at path:line:col}, in the order they are written. */
    private static List<String> located(Application app, String path) {
        return app.manifests().stream().filter(m -> m.location().path().equals(path)).sorted((a, b) -> a.location().compareTo(b.location()))
                .map(m -> m.ref() + " at " + m.location()).toList();
    }

    private static List<String> errors(DesiredState s) {
        return s.diagnostics().stream().filter(Diagnostic::isError).map(Object::toString).toList();
    }
}
