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
}
