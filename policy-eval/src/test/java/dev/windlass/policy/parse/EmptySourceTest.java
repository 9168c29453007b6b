package dev.windlass.policy.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.RepoFiles;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A source path that holds no manifests is a mistake (a wrong folder, a forgotten file), unless the app says it is meant. */
class EmptySourceTest {
    static final String APP = """
            apiVersion: windlass.dev/v1alpha1
            kind: Application
            metadata: {name: x}
            spec:
              placement: {clusterSelector: {}}
            """;

    static List<String> errors(DesiredState s) {
        return s.diagnostics().stream().filter(Diagnostic::isError).map(Object::toString).toList();
    }

    @Test
    void aFolderWithoutManifestsIsAnErrorNotSyncedWithNothing() {
        DesiredState s = RepoParser.parse(RepoFiles.inline("clusters/eu-1.yaml", RepoParserTest.CLUSTER, "apps/x/app.yaml", APP,
                "apps/x/manifests/README.md", "nothing here yet\n"));
        assertEquals(List.of("apps/x/app.yaml:5:3: the source folder apps/x/manifests holds no manifests — add some, "
                + "or set spec.source.allowEmpty: true if it is meant to be empty"), errors(s));
        assertFalse(s.apps().get("x").valid());
    }

    @Test
    void onlyWindlassObjectsOrAnEmptyFileAreNoManifestsEither() {
        DesiredState s = RepoParser.parse(RepoFiles.inline("clusters/eu-1.yaml", RepoParserTest.CLUSTER,
                "apps/x/app.yaml", APP + "  source: {path: apps/x}\n", "apps/x/empty.yaml", "# to do\n"));
        assertEquals(List.of("apps/x/app.yaml:6:18: the source folder apps/x holds no manifests — add some, "
                + "or set spec.source.allowEmpty: true if it is meant to be empty"), errors(s));
    }

    @Test
    void allowEmptySaysItIsMeant() {
        DesiredState s = RepoParser.parse(RepoFiles.inline("clusters/eu-1.yaml", RepoParserTest.CLUSTER,
                "apps/x/app.yaml", APP + "  source: {allowEmpty: true}\n", "apps/x/manifests/README.md", "later\n"));
        assertEquals(List.of(), errors(s));
        assertTrue(s.apps().get("x").valid());
        assertEquals("apps/x/manifests", s.apps().get("x").sourcePath(), "the path keeps its default");
    }

    @Test
    void aManifestThatCannotBeReadIsReportedAloneNotAsAnEmptyFolder() {
        DesiredState s = RepoParser.parse(RepoFiles.inline("clusters/eu-1.yaml", RepoParserTest.CLUSTER, "apps/x/app.yaml", APP,
                "apps/x/manifests/cm.yaml", "apiVersion: v1\nkind: ConfigMap\n"));
        assertEquals(List.of("apps/x/manifests/cm.yaml:1:1: object has no metadata.name; every Kubernetes object needs apiVersion, kind and metadata.name"),
                errors(s));
    }
}
