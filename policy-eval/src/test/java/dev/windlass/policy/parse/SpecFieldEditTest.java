package dev.windlass.policy.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.RepoFiles;
import dev.windlass.policy.model.DesiredState;
import org.junit.jupiter.api.Test;

class SpecFieldEditTest {
    static final String APP = """
            # the web frontend
            apiVersion: windlass.dev/v1alpha1
            kind: Application
            metadata:
              name: web
            spec:
              namespace: web  # keep
              placement:
                clusterSelector: {}
              dependsOn:
                - api

            # trailing notes
            """;

    static DesiredState parse(String appYaml) {
        return RepoParser.parse(RepoFiles.inline("apps/web/app.yaml", appYaml,
                "apps/web/manifests/x.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n",
                "apps/api/app.yaml", APP.replace("name: web", "name: api").replace("  dependsOn:\n    - api\n", ""),
                "apps/api/manifests/x.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: y}\n"));
    }

    @Test
    void addsTheFieldAfterTheLastOneAndRemovesItLeavingTheFileAsItWas() {
        SpecFieldEdit.Outcome set = SpecFieldEdit.set(APP, "Application", "web", "suspend", "true");
        assertEquals(APP.replace("    - api\n", "    - api\n  suspend: true\n"), set.text());
        assertTrue(parse(set.text()).apps().get("web").suspend());
        assertEquals(APP, SpecFieldEdit.remove(set.text(), "Application", "web", "suspend").text());
    }

    @Test
    void replacesAValueInPlaceKeepingItsComment() {
        String written = APP.replace("  namespace: web  # keep\n", "  suspend: false  # ask Bob first\n  namespace: web  # keep\n");
        String set = SpecFieldEdit.set(written, "Application", "web", "suspend", "true").text();
        assertEquals(written.replace("suspend: false  # ask Bob", "suspend: true  # ask Bob"), set);
        assertEquals(APP, SpecFieldEdit.remove(set, "Application", "web", "suspend").text());
        String empty = APP.replace("  namespace: web  # keep\n", "  suspend:\n  namespace: web  # keep\n");
        assertEquals(written.replace("  suspend: false  # ask Bob first\n", "  suspend: true\n"),
                SpecFieldEdit.set(empty, "Application", "web", "suspend", "true").text(), "an empty value is replaced with its line");
    }

    @Test
    void removingWhatIsNotThereChangesNothing() {
        SpecFieldEdit.Outcome out = SpecFieldEdit.remove(APP, "Application", "web", "suspend");
        assertTrue(out.ok());
        assertEquals(APP, out.text());
    }

    @Test
    void editsOnlyTheNamedObjectOfAFileWithSeveralDocuments() {
        String cluster = """
                apiVersion: windlass.dev/v1alpha1
                kind: Cluster
                metadata:
                  name: eu-1
                spec:
                  connection:
                    sandbox:
                      nodes: 3
                """;
        String two = cluster + "---\n" + cluster.replace("eu-1", "eu-2");
        String edited = SpecFieldEdit.set(two, "Cluster", "eu-2", "suspend", "true").text();
        assertEquals(cluster + "---\n" + cluster.replace("eu-1", "eu-2") + "  suspend: true\n", edited);
        String first = SpecFieldEdit.set(two, "Cluster", "eu-1", "suspend", "true").text();
        assertEquals(cluster + "  suspend: true\n---\n" + cluster.replace("eu-1", "eu-2"), first);
    }

    @Test
    void refusesWhatItCannotEditLineByLine() {
        String flowSpec = "apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata:\n  name: web\nspec: {placement: {clusterSelector: {}}}\n";
        assertEquals("spec of Application web is written in flow style ({...}); write it as a block to let Windlass edit it",
                SpecFieldEdit.set(flowSpec, "Application", "web", "suspend", "true").problem());
        String flowDoc = "{apiVersion: windlass.dev/v1alpha1, kind: Application, metadata: {name: web}, spec: {placement: {}}}\n";
        assertEquals("spec of Application web is written in flow style ({...}); write it as a block to let Windlass edit it",
                SpecFieldEdit.set(flowDoc, "Application", "web", "suspend", "true").problem());
        assertEquals("no Application named db in this file", SpecFieldEdit.set(APP, "Application", "db", "suspend", "true").problem());
        assertEquals("no Cluster named web in this file", SpecFieldEdit.set(APP, "Cluster", "web", "suspend", "true").problem());
        assertEquals("spec.placement of Application web is not a single value; edit it by hand",
                SpecFieldEdit.set(APP, "Application", "web", "placement", "x").problem());
        String only = "kind: Cluster\nmetadata:\n  name: eu-1\nspec:\n  suspend: true\n";
        assertEquals("spec.suspend is the only field in the spec of Cluster eu-1; removing it would leave the spec empty",
                SpecFieldEdit.remove(only, "Cluster", "eu-1", "suspend").problem());
    }
}
