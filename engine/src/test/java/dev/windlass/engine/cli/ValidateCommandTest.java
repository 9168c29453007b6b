package dev.windlass.engine.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ValidateCommandTest {
    @TempDir Path dir;

    String run(int expectedCode, String... args) {
        StringWriter out = new StringWriter();
        assertEquals(expectedCode, Main.run(new PrintWriter(out, true), new PrintWriter(new StringWriter(), true), args), out.toString());
        return out.toString();
    }

    @Test
    void theExamplesAreClean() {
        assertEquals("../examples-repo: 3 clusters, 5 applications, 0 errors, 0 warnings\n", run(0, "validate", "../examples-repo"));
    }

    @Test
    void everyProblemIsPrintedWithItsPosition() throws Exception {
        Files.createDirectories(dir.resolve("apps/web/manifests"));
        Files.writeString(dir.resolve("apps/web/app.yaml"), """
                apiVersion: windlass.dev/v1alpha1
                kind: Application
                metadata: {name: web}
                spec:
                  placement: {clusterNames: [eu-1]}
                  syncPolicy: {prune: yes-please}
                """);
        Files.writeString(dir.resolve("apps/web/manifests/cm.yaml"), "apiVersion: v1\nkind: ConfigMap\ndata: {}\n");
        String out = run(1, "validate", dir.toString());
        assertEquals("""
                apps/web/app.yaml:5:29: Application web names cluster 'eu-1' in spec.placement.clusterNames, but no Cluster has that name (the repo defines no clusters)
                apps/web/app.yaml:6:23: Application.spec.syncPolicy.prune must be true or false
                apps/web/manifests/cm.yaml:1:1: object has no metadata.name; every Kubernetes object needs apiVersion, kind and metadata.name
                %s: 0 clusters, 1 applications (1 invalid), 3 errors, 0 warnings
                """.formatted(dir), out);
    }

    @Test
    void anOutOfRangeSettingIsPrintedAtItsValue() throws Exception {
        Files.writeString(dir.resolve("windlass.yaml"), """
                apiVersion: windlass.dev/v1alpha1
                kind: Settings
                metadata: {name: windlass}
                spec:
                  interval: 99999999999999999999s
                """);
        assertEquals("""
                windlass.yaml:5:13: Settings.spec.interval '99999999999999999999s' is out of range: Windlass reads durations of at most 3650d; write e.g. 30s, 5m or 1h
                %s: 0 clusters, 0 applications, 1 error, 0 warnings
                """.formatted(dir), run(1, "validate", dir.toString()));
    }

    /** The golden plan of this repo lists the same two problems: validate and plan say the same, at both files. */
    @Test
    void anObjectDeclaredByTwoAppsIsReportedAtBothManifestsAsThePlanReportsIt() {
        String repo = "../policy-eval/src/test/resources/plans/ownership-conflict/repo";
        assertEquals("""
                apps/admin/manifests/config.yaml:1:1: ConfigMap shop/shop-config is also declared by application shop on a; an object has one owner: remove it from one of them
                apps/shop/manifests/config.yaml:1:1: ConfigMap shop/shop-config is also declared by application admin on a; an object has one owner: remove it from one of them
                %s: 2 clusters, 3 applications (2 invalid), 2 errors, 0 warnings
                """.formatted(repo), run(1, "validate", repo));
    }

    /** Rendered objects are known only after rendering; they have one owner too, said by validate as by plan. */
    @Test
    void anObjectAKustomizeBuildAndAPlainAppBothDeclareIsReportedAtBoth() throws Exception {
        Files.createDirectories(dir.resolve("clusters"));
        Files.writeString(dir.resolve("clusters/c1.yaml"),
                "apiVersion: windlass.dev/v1alpha1\nkind: Cluster\nmetadata: {name: c1}\nspec: {connection: {sandbox: {nodes: 1}}}\n");
        String cm = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: shared}\ndata: {k: v}\n";
        for (String app : new String[] {"plain", "built"}) {
            Files.createDirectories(dir.resolve("apps/" + app + "/manifests"));
            Files.writeString(dir.resolve("apps/" + app + "/app.yaml"), "apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: "
                    + app + "}\nspec:\n  namespace: team\n  placement: {clusterNames: [c1]}\n");
            Files.writeString(dir.resolve("apps/" + app + "/manifests/cm.yaml"), cm);
        }
        Files.writeString(dir.resolve("apps/built/manifests/kustomization.yaml"), "resources: [cm.yaml]\n");
        String out = run(1, "validate", dir.toString());
        assertEquals(2, out.lines().filter(l -> l.contains("ConfigMap team/shared is also declared by application")).count(), out);
        assertEquals(true, out.contains("apps/plain/manifests/cm.yaml:1:1: ConfigMap team/shared is also declared by application built on c1;"), out);
        assertEquals(true, out.lines().anyMatch(l -> l.startsWith("apps/built/manifests/kustomization.yaml:")
                && l.contains(": ConfigMap team/shared is also declared by application plain on c1;")), out);
        assertEquals(true, out.endsWith(": 1 clusters, 2 applications (2 invalid), 2 errors, 0 warnings\n"), out);
    }
}
