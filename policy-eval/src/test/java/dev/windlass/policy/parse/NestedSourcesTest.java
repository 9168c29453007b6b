package dev.windlass.policy.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.windlass.policy.RepoFiles;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Source paths of two applications that are the same or nest: every object there would be applied by both. */
class NestedSourcesTest {
    static final String CLUSTER = "apiVersion: windlass.dev/v1alpha1\nkind: Cluster\nmetadata: {name: c1}\nspec: {connection: {sandbox: {nodes: 1}}}\n";
    static final String CM = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\n";

    static String app(String name, String namespace, String source) {
        return "apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: " + name + "}\nspec:\n  namespace: " + namespace + "\n"
                + "  placement: {clusterNames: [c1]}\n" + (source == null ? "" : "  source: {path: " + source + "}\n");
    }

    static List<String> errors(DesiredState s) {
        return s.diagnostics().stream().filter(Diagnostic::isError).map(Object::toString).toList();
    }

    static List<String> invalid(DesiredState s) {
        return s.apps().values().stream().filter(a -> !a.valid()).map(Application::name).toList();
    }

    @Test
    void aSourcePathInsideAnothersIsAnErrorAtBothApps() {
        DesiredState s = RepoParser.parse(RepoFiles.inline("clusters/c1.yaml", CLUSTER,
                "apps/a/app.yaml", app("a", "one", "apps/a"),
                "apps/a/sub/app.yaml", app("sub", "two", null), "apps/a/sub/manifests/cm.yaml", CM,
                "apps/other/app.yaml", app("other", "three", null), "apps/other/manifests/cm.yaml", CM));
        assertEquals(List.of(
                "apps/a/app.yaml:7:18: the source path apps/a of application a holds the source path apps/a/sub/manifests of application sub "
                        + "(apps/a/sub/app.yaml:5:3); every manifest there would be applied by both: give each application a folder of its own",
                "apps/a/sub/app.yaml:5:3: the source path apps/a/sub/manifests of application sub is inside the source path apps/a of application a "
                        + "(apps/a/app.yaml:7:18); every manifest there would be applied by both: give each application a folder of its own"),
                errors(s));
        assertEquals(List.of("a", "sub"), invalid(s), "not applied twice under two namespaces; other goes on");
    }

    @Test
    void theSameSourcePathIsAnErrorAtBothApps() {
        DesiredState s = RepoParser.parse(RepoFiles.inline("clusters/c1.yaml", CLUSTER,
                "apps/a/app.yaml", app("a", "one", "shared"), "apps/b/app.yaml", app("b", "two", "./shared/"), "shared/cm.yaml", CM));
        assertEquals(List.of(
                "apps/a/app.yaml:7:18: application a has the same source path shared as application b (apps/b/app.yaml:7:18); "
                        + "every manifest there would be applied by both: give each application a folder of its own",
                "apps/b/app.yaml:7:18: application b has the same source path shared as application a (apps/a/app.yaml:7:18); "
                        + "every manifest there would be applied by both: give each application a folder of its own"),
                errors(s));
        assertEquals(List.of("a", "b"), invalid(s));
    }

    @Test
    void foldersThatOnlyShareAPrefixDoNotNest() {
        DesiredState s = RepoParser.parse(RepoFiles.inline("clusters/c1.yaml", CLUSTER,
                "apps/a/app.yaml", app("a", "one", "apps/a"), "apps/a-b/app.yaml", app("ab", "two", "apps/a-b"),
                "apps/a/cm.yaml", CM, "apps/a-b/cm.yaml", CM));
        assertEquals(List.of(), errors(s));
    }

    @Test
    void aHelmApplicationReadsItsChartNotItsSourcePathSoItNestsInNothing() {
        String helm = app("chart", "two", null) + "  source: {helm: {chart: charts/web}}\n";
        DesiredState s = RepoParser.parse(RepoFiles.inline("clusters/c1.yaml", CLUSTER,
                "apps/a/app.yaml", app("a", "one", "apps"), "apps/a/cm.yaml", CM,
                "apps/chart/app.yaml", helm, "charts/web/Chart.yaml", "apiVersion: v2\nname: web\nversion: 1.0.0\n"));
        assertEquals(List.of(), errors(s));
    }
}
