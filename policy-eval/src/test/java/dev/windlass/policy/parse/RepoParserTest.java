package dev.windlass.policy.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.RepoFiles;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.model.ObjectRef;
import java.util.List;
import org.junit.jupiter.api.Test;

class RepoParserTest {

    static final String CLUSTER = """
            apiVersion: windlass.dev/v1alpha1
            kind: Cluster
            metadata: {name: eu-1, labels: {env: prod}}
            spec:
              connection: {sandbox: {nodes: 1}}
            """;
    static final String APP = """
            apiVersion: windlass.dev/v1alpha1
            kind: Application
            metadata: {name: web}
            spec:
              namespace: web
              placement: {clusterSelector: {matchLabels: {env: prod}}}
            """;
    static final String DEPLOY = """
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: web}
            spec: {replicas: 1}
            """;

    private static List<String> errors(DesiredState s) {
        return s.diagnostics().stream().filter(Diagnostic::isError).map(Object::toString).toList();
    }

    @Test
    void examplesRepoIsClean() {
        DesiredState s = RepoParser.parse(RepoFiles.examples());
        assertEquals(List.of(), s.diagnostics().stream().map(Object::toString).toList());
        assertEquals(List.of("eu-1", "eu-2", "us-1"), List.copyOf(s.clusters().keySet()));
        assertEquals(List.of("api", "cache", "greeter", "shop", "web"), List.copyOf(s.apps().keySet()));
        Application web = s.apps().get("web");
        assertEquals("apps/web/manifests", web.sourcePath());
        assertTrue(web.manifests().stream().anyMatch(m -> m.implicit() && m.ref().name().equals("web")), "implicit namespace");
        Manifest deploy = web.manifests().stream().filter(m -> m.ref().kind().equals("Deployment")).findFirst().orElseThrow();
        assertEquals("web", deploy.ref().namespace(), "namespace defaulted from the application");
        assertEquals("apps/web/manifests/deployment.yaml:1:1", deploy.location().toString());
        assertEquals(12, web.revision().length());
    }

    @Test
    void unknownFieldIsReportedWithItsPositionAndTheKnownFields() {
        DesiredState s = RepoParser.parse(RepoFiles.inline("clusters/eu-1.yaml", CLUSTER,
                "apps/web/app.yaml", APP + "  syncPolicy: {prune: true, selfheal: true}\n", "apps/web/manifests/d.yaml", DEPLOY));
        assertEquals(List.of("apps/web/app.yaml:7:29: unknown field 'selfheal' in Application.spec.syncPolicy; known fields: prune, selfHeal, applyStrategy, force"), errors(s));
        assertFalse(s.apps().get("web").valid());
    }

    @Test
    void duplicateKeysAreErrorsNotSilentlyLastWins() {
        DesiredState s = RepoParser.parse(RepoFiles.inline("clusters/eu-1.yaml", CLUSTER, "apps/web/app.yaml", APP,
                "apps/web/manifests/d.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: one\n  k: two\n"));
        assertEquals(List.of("apps/web/manifests/d.yaml:7:3: duplicate key 'k' (first at line 6); keep only one"), errors(s));
        assertFalse(s.apps().get("web").valid(), "the app owning the broken file is invalid");
        assertTrue(s.brokenFiles().contains("apps/web/manifests/d.yaml"));
    }

    @Test
    void malformedYamlPointsAtTheProblem() {
        DesiredState s = RepoParser.parse(RepoFiles.inline("clusters/eu-1.yaml", CLUSTER, "apps/web/app.yaml", APP,
                "apps/web/manifests/d.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [unclosed\n"));
        List<String> errs = errors(s);
        assertEquals(1, errs.size(), errs.toString());
        assertTrue(errs.get(0).startsWith("apps/web/manifests/d.yaml:5:1: invalid YAML:"), errs.get(0));
    }

    @Test
    void manifestWithoutKindOrNameIsAnErrorOnTheApp() {
        DesiredState s = RepoParser.parse(RepoFiles.inline("clusters/eu-1.yaml", CLUSTER, "apps/web/app.yaml", APP,
                "apps/web/manifests/d.yaml", DEPLOY + "---\napiVersion: v1\nmetadata: {name: x}\n"));
        assertEquals(List.of("apps/web/manifests/d.yaml:6:1: object has no kind; every Kubernetes object needs apiVersion, kind and metadata.name"), errors(s));
        assertEquals(errors(s), s.apps().get("web").diagnostics().stream().map(Object::toString).toList());
    }

    @Test
    void missingSourcePathAndUnknownClusterName() {
        DesiredState s = RepoParser.parse(RepoFiles.inline("clusters/eu-1.yaml", CLUSTER,
                "apps/web/app.yaml", APP.replace("placement: {clusterSelector: {matchLabels: {env: prod}}}", "placement: {clusterNames: [eu-9]}")
                        + "  source: {path: apps/web/k8s}\n"));
        assertEquals(List.of(
                "apps/web/app.yaml:6:29: Application web names cluster 'eu-9' in spec.placement.clusterNames, but no Cluster has that name; known: eu-1",
                "apps/web/app.yaml:7:18: source path 'apps/web/k8s' does not exist in the repo; create it or set spec.source.path"), errors(s));
    }

    @Test
    void duplicateNamesAndLabelTypesAndDependencyCycles() {
        String app2 = APP.replace("name: web", "name: api") + "  dependsOn: [web]\n";
        DesiredState s = RepoParser.parse(RepoFiles.inline(
                "clusters/eu-1.yaml", CLUSTER.replace("env: prod", "env: prod, canary: true"),
                "clusters/eu-1-copy.yaml", CLUSTER,
                "apps/web/app.yaml", APP + "  dependsOn: [api]\n", "apps/web/manifests/d.yaml", DEPLOY,
                "apps/api/app.yaml", app2, "apps/api/manifests/d.yaml", DEPLOY));
        List<String> errs = errors(s);
        assertTrue(errs.contains("clusters/eu-1.yaml:3:18: Cluster 'eu-1' is also defined at clusters/eu-1-copy.yaml:3:18; a name may be defined once: rename or remove one (until then neither is used)"), errs.toString());
        assertTrue(errs.contains("clusters/eu-1-copy.yaml:3:18: Cluster 'eu-1' is also defined at clusters/eu-1.yaml:3:18; a name may be defined once: rename or remove one (until then neither is used)"), errs.toString());
        assertTrue(errs.contains("clusters/eu-1.yaml:3:52: Cluster.metadata.labels.canary must be a string; quote the value (\"true\")"), errs.toString());
        assertTrue(errs.stream().anyMatch(e -> e.contains("dependency cycle: api -> web -> api")), errs.toString());
        assertFalse(s.apps().get("web").valid());
        assertFalse(s.apps().get("api").valid());
    }

    @Test
    void remediationPolicyIsReadNotRefused() {
        DesiredState s = RepoParser.parse(RepoFiles.inline("policies/remediation.yaml",
                "apiVersion: windlass.dev/v1alpha1\nkind: RemediationPolicy\nmetadata: {name: bf}\nspec: {}\n"));
        assertFalse(errors(s).stream().anyMatch(e -> e.contains("not supported")), errors(s).toString());
        assertTrue(errors(s).contains("policies/remediation.yaml:4:7: RemediationPolicy.spec.target is required: the objects it remediates, "
                + "e.g. {apiVersion: v1, kind: Node}"), errors(s).toString());
        assertTrue(s.brokenFiles().contains("policies/remediation.yaml"));
    }

    @Test
    void annotationsAreValidated() {
        DesiredState s = RepoParser.parse(RepoFiles.inline("clusters/eu-1.yaml", CLUSTER, "apps/web/app.yaml", APP,
                "apps/web/manifests/d.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  annotations: {windlass.dev/wave: soon, windlass.dev/gc: Sometimes}\n"));
        assertEquals(2, errors(s).size(), errors(s).toString());
        assertTrue(errors(s).get(0).contains("windlass.dev/gc"), errors(s).toString());
    }

    @Test
    void aliasBombIsRejected() {
        StringBuilder b = new StringBuilder("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata:\n  a: &a [\"x\",\"x\"]\n");
        for (int i = 0; i < 60; i++) b.append("  b").append(i).append(": &b").append(i).append(" [*a,*a]\n");
        DesiredState s = RepoParser.parse(RepoFiles.inline("clusters/eu-1.yaml", CLUSTER, "apps/web/app.yaml", APP, "apps/web/manifests/d.yaml", b.toString()));
        assertEquals(List.of("apps/web/manifests/d.yaml:31:14: alias *a is alias 51 of a list or mapping in this file, over the limit of 50; "
                + "write the values out"), errors(s));
    }

    @Test
    void unchangedFilesAreNotParsedAgain() {
        ParseCache cache = new ParseCache();
        RepoParser.parse(RepoFiles.examples(), cache);
        assertEquals(18, cache.parsedLastPass(), "every YAML file of the examples once (README is not YAML; a chart's files are rendered, not parsed)");
        RepoParser.parse(RepoFiles.examples(), cache);
        assertEquals(0, cache.parsedLastPass());
    }

    @Test
    void manifestsOfUnchangedFilesAreNotReadAgainUnlessTheirNamespaceOrScopeChanged() {
        String widgets = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: flags}\n---\n"
                + "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n";
        String crd = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: widgets.example.com}\n"
                + "spec: {group: example.com, scope: Cluster, names: {kind: Widget, plural: widgets}}\n";
        ParseCache cache = new ParseCache();
        var first = RepoFiles.inline("clusters/eu-1.yaml", CLUSTER, "apps/web/app.yaml", APP, "apps/web/manifests/m.yaml", widgets);
        assertEquals(RepoParser.parse(first), RepoParser.parse(first, cache));
        assertEquals(2, cache.manifestsReadLastPass());
        assertEquals(RepoParser.parse(first), RepoParser.parse(first, cache));
        assertEquals(0, cache.manifestsReadLastPass(), "nothing changed");

        var otherNamespace = RepoFiles.inline("clusters/eu-1.yaml", CLUSTER, "apps/web/app.yaml", APP.replace("namespace: web", "namespace: shop"),
                "apps/web/manifests/m.yaml", widgets);
        DesiredState moved = RepoParser.parse(otherNamespace, cache);
        assertEquals(RepoParser.parse(otherNamespace), moved);
        assertEquals(2, cache.manifestsReadLastPass(), "the app's namespace changed: both are read again");
        assertTrue(moved.apps().get("web").manifests().stream().anyMatch(m -> m.ref().equals(new ObjectRef("", "ConfigMap", "shop", "flags"))),
                moved.apps().get("web").manifests().toString());

        var clusterScoped = RepoFiles.inline("clusters/eu-1.yaml", CLUSTER, "apps/web/app.yaml", APP.replace("namespace: web", "namespace: shop"),
                "apps/web/manifests/m.yaml", widgets, "apps/web/manifests/crd.yaml", crd);
        DesiredState scoped = RepoParser.parse(clusterScoped, cache);
        assertEquals(RepoParser.parse(clusterScoped), scoped);
        assertEquals(2, cache.manifestsReadLastPass(), "the new definition, and the Widget it makes cluster-scoped");
        assertTrue(scoped.apps().get("web").manifests().stream().anyMatch(m -> m.ref().equals(new ObjectRef("example.com", "Widget", "", "w"))),
                scoped.apps().get("web").manifests().toString());
    }

    @Test
    void aBadManifestIsReportedOnEveryPassThroughTheCache() {
        String bad = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: flags\n  annotations: {windlass.dev/wave: soon}\n";
        var repo = RepoFiles.inline("clusters/eu-1.yaml", CLUSTER, "apps/web/app.yaml", APP, "apps/web/manifests/m.yaml", bad);
        ParseCache cache = new ParseCache();
        for (int pass = 1; pass <= 2; pass++) {
            DesiredState s = RepoParser.parse(repo, cache);
            assertTrue(errors(s).stream().anyMatch(e -> e.startsWith("apps/web/manifests/m.yaml:1:1: annotation windlass.dev/wave is 'soon'")),
                    "pass " + pass + ": " + errors(s));
            assertFalse(s.apps().get("web").valid(), "pass " + pass + ": nothing is applied for web");
        }
        assertEquals(0, cache.manifestsReadLastPass(), "the second pass said it again from the cache");
    }
}
