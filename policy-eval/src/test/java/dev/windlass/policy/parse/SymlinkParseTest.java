package dev.windlass.policy.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.source.MapSnapshot;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** A symbolic link is an error with its path, and holds the application it is in; what it points to is never read. */
class SymlinkParseTest {

    static DesiredState parse(Set<String> symlinks) {
        Map<String, byte[]> files = new TreeMap<>();
        files.put("clusters/eu-1.yaml", RepoParserTest.CLUSTER.getBytes(StandardCharsets.UTF_8));
        files.put("apps/web/app.yaml", RepoParserTest.APP.getBytes(StandardCharsets.UTF_8));
        files.put("apps/web/manifests/d.yaml", RepoParserTest.DEPLOY.getBytes(StandardCharsets.UTF_8));
        files.put("apps/api/app.yaml", RepoParserTest.APP.replace("name: web", "name: api").replace("namespace: web", "namespace: api")
                .getBytes(StandardCharsets.UTF_8));
        files.put("apps/api/manifests/d.yaml", RepoParserTest.DEPLOY.getBytes(StandardCharsets.UTF_8));
        return RepoParser.parse(new MapSnapshot("0000000000000000000000000000000000000004", files, symlinks));
    }

    static List<String> errors(DesiredState s) { return s.diagnostics().stream().filter(Diagnostic::isError).map(Object::toString).toList(); }

    @Test void aSymlinkAmongAnApplicationsManifestsHoldsThatApplication() {
        DesiredState s = parse(Set.of("apps/web/manifests/secret.yaml"));
        assertEquals(List.of("apps/web/manifests/secret.yaml:1:1: secret.yaml is a symbolic link; Windlass reads no symbolic links, "
                + "so replace it with the file itself"), errors(s));
        assertFalse(s.apps().get("web").valid(), "web is held: what the link stood for is unknown");
        assertEquals(errors(s), s.apps().get("web").diagnostics().stream().map(Object::toString).toList());
        assertTrue(s.brokenFiles().contains("apps/web/manifests/secret.yaml"));
        assertTrue(s.apps().get("api").valid());
    }

    @Test void aSymlinkToAFolderIsReportedToo() {
        assertEquals(List.of("apps/web/manifests/common:1:1: common is a symbolic link; Windlass reads no symbolic links, "
                + "so replace it with the file itself"), errors(parse(Set.of("apps/web/manifests/common"))));
    }

    @Test void aSymlinkOutsideEveryApplicationIsAnErrorOfTheRepo() {
        DesiredState s = parse(Set.of("clusters/us-1.yaml"));
        assertEquals(List.of("clusters/us-1.yaml:1:1: us-1.yaml is a symbolic link; Windlass reads no symbolic links, "
                + "so replace it with the file itself"), errors(s));
        assertTrue(s.apps().get("web").valid());
        assertTrue(s.apps().get("api").valid());
    }

    @Test void aSymlinkInAHiddenFolderIsLeftAlone() {
        assertEquals(List.of(), errors(parse(Set.of(".github/workflows/ci.yaml"))));
    }
}
