package dev.windlass.policy.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.windlass.policy.RepoFiles;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One owner per object, checked on the repo alone: for every cluster two applications may be placed on. */
class SharedObjectsTest {
    static String cluster(String name, String env) {
        return "apiVersion: windlass.dev/v1alpha1\nkind: Cluster\nmetadata: {name: " + name + ", labels: {env: " + env + "}}\n"
                + "spec: {connection: {sandbox: {nodes: 1}}}\n";
    }

    static String app(String name, String placement) {
        return "apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: " + name + "}\nspec:\n  placement: " + placement + "\n";
    }

    static final String CM = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: shared}\n";

    static DesiredState repo(String placementA, String placementB) {
        return RepoParser.parse(RepoFiles.inline("clusters/p1.yaml", cluster("p1", "prod"), "clusters/p2.yaml", cluster("p2", "prod"),
                "clusters/s1.yaml", cluster("s1", "staging"),
                "apps/a/app.yaml", app("a", placementA), "apps/a/manifests/cm.yaml", CM,
                "apps/b/app.yaml", app("b", placementB), "apps/b/manifests/cm.yaml", CM));
    }

    static List<String> errors(DesiredState s) {
        return s.diagnostics().stream().filter(Diagnostic::isError).map(Object::toString).toList();
    }

    @Test
    void appsOnClustersApartMayDeclareOneObject() {
        DesiredState s = repo("{clusterSelector: {matchLabels: {env: prod}}}", "{clusterNames: [s1]}");
        assertEquals(List.of(), errors(s));
    }

    @Test
    void appsThatMayMeetOnAClusterAreBothInvalidEvenWhenMaxClustersKeepsThemApartNow() {
        DesiredState s = repo("{clusterSelector: {matchLabels: {env: prod}}, maxClusters: 1}", "{clusterNames: [p2]}");
        assertEquals(List.of(
                "apps/a/manifests/cm.yaml:1:1: ConfigMap default/shared is also declared by application b on p2; an object has one owner: remove it from one of them",
                "apps/b/manifests/cm.yaml:1:1: ConfigMap default/shared is also declared by application a on p2; an object has one owner: remove it from one of them"),
                errors(s));
        assertEquals(List.of(), s.apps().values().stream().filter(Application::valid).map(Application::name).toList());
    }

    @Test
    void theApplicationHoldingTheObjectKeepsItAndTheOtherIsHeldNamingBothDeclarations() {
        var files = RepoFiles.inline("clusters/p1.yaml", cluster("p1", "prod"),
                "apps/a/app.yaml", app("a", "{clusterNames: [p1]}"), "apps/a/manifests/cm.yaml", CM,
                "apps/b/app.yaml", app("b", "{clusterNames: [p1]}"), "apps/b/manifests/cm.yaml", CM);
        Owners bHoldsIt = new Owners() {
            @Override public String holder(String cluster, dev.windlass.policy.model.ObjectRef ref) { return cluster.equals("p1") ? "b" : null; }

            @Override public Long introduced(String path) { return null; }
        };
        DesiredState s = RepoParser.parse(files, new ParseCache(), bHoldsIt);
        assertEquals(List.of("apps/a/manifests/cm.yaml:1:1: ConfigMap default/shared is already declared by application b at apps/b/manifests/cm.yaml:1:1,"
                + " which holds it on p1; an object has one owner: remove it from this application, or from b first"), errors(s));
        assertEquals(List.of("b"), s.apps().values().stream().filter(Application::valid).map(Application::name).toList());
    }

    @Test
    void withNeitherHoldingItTheDeclarationThatCameFirstKeepsItAndOneCommitKeepsNeither() {
        var files = RepoFiles.inline("clusters/p1.yaml", cluster("p1", "prod"),
                "apps/a/app.yaml", app("a", "{clusterNames: [p1]}"), "apps/a/manifests/cm.yaml", CM,
                "apps/b/app.yaml", app("b", "{clusterNames: [p1]}"), "apps/b/manifests/cm.yaml", CM);
        DesiredState bFirst = RepoParser.parse(files, new ParseCache(), introduced(java.util.Map.of("apps/a/manifests/cm.yaml", 7L, "apps/b/manifests/cm.yaml", 3L)));
        assertEquals(List.of("apps/a/manifests/cm.yaml:1:1: ConfigMap default/shared is already declared by application b at apps/b/manifests/cm.yaml:1:1,"
                + " which declared it first; an object has one owner: remove it from this application, or from b first"), errors(bFirst));
        DesiredState together = RepoParser.parse(files, new ParseCache(), introduced(java.util.Map.of("apps/a/manifests/cm.yaml", 3L, "apps/b/manifests/cm.yaml", 3L)));
        assertEquals(2, errors(together).size(), "declared in one commit: neither came first, both are held");
    }

    private static Owners introduced(java.util.Map<String, Long> when) {
        return new Owners() {
            @Override public String holder(String cluster, dev.windlass.policy.model.ObjectRef ref) { return null; }

            @Override public Long introduced(String path) { return when.get(path); }
        };
    }
}
