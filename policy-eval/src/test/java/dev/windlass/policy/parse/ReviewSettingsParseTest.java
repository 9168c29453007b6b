package dev.windlass.policy.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.RepoFiles;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.ReviewSettings;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReviewSettingsParseTest {

    static DesiredState parse(String review) {
        return RepoParser.parse(RepoFiles.inline("windlass.yaml", """
                apiVersion: windlass.dev/v1alpha1
                kind: Settings
                metadata: {name: windlass}
                spec:
                """ + review.indent(2)));
    }

    static List<String> errors(DesiredState s) { return s.diagnostics().stream().filter(Diagnostic::isError).map(Object::toString).toList(); }

    @Test void everythingHasADefault() {
        ReviewSettings r = parse("interval: 30s\n").settings().review();
        assertEquals(ReviewSettings.DEFAULT, r);
        assertTrue(r.reviews("feature/a", "main", "windlass/status"));
        assertFalse(r.reviews("main", "main", "windlass/status"));
        assertFalse(r.reviews("windlass/status", "main", "windlass/status"));
        assertNull(r.host());
    }

    @Test void readsBranchesHostAndPinning() {
        DesiredState s = parse("""
                review:
                  branches: ["feature/*", "release/**"]
                  pullRequests: false
                  requireUndiverged: true
                  host: {type: gitea, apiUrl: "https://git.example.com/api/v1", repository: platform/fleet, tokenFile: /run/secrets/token}
                """);
        assertEquals(List.of(), errors(s));
        ReviewSettings r = s.settings().review();
        assertEquals(List.of("feature/*", "release/**"), r.branches());
        assertFalse(r.pullRequests());
        assertTrue(r.requireUndiverged());
        assertEquals(new ReviewSettings.Host("gitea", "https://git.example.com/api/v1", "platform/fleet", "WINDLASS_REVIEW_TOKEN",
                "/run/secrets/token"), r.host());
        assertTrue(r.reviews("feature/a", "main", "windlass/status"));
        assertFalse(r.reviews("feature/a/b", "main", "windlass/status"), "* stays within one segment");
        assertTrue(r.reviews("release/2026/11", "main", "windlass/status"));
        assertFalse(r.reviews("fix-1", "main", "windlass/status"));
    }

    @Test void githubApiUrlDefaults() {
        ReviewSettings.Host h = parse("review: {host: {type: github}}\n").settings().review().host();
        assertEquals("https://api.github.com", h.apiUrl());
        assertNull(h.repository(), "taken from the repository URL");
    }

    @Test void wrongValuesAreErrorsWithTheirPlaceAndAFix() {
        assertEquals(List.of("windlass.yaml:6:18: Settings.spec.review.host.type 'gitlab' is not known; write github or gitea"),
                errors(parse("review:\n  host: {type: gitlab}\n")));
        assertEquals(List.of("windlass.yaml:8:19: Settings.spec.review.host.repository 'fleet' must be owner/name, e.g. platform/fleet-config"),
                errors(parse("review:\n  host:\n    type: github\n    repository: fleet\n")));
        assertEquals(List.of("windlass.yaml:6:11: Settings.spec.review.host.apiUrl is required for gitea; write e.g. https://git.example.com/api/v1"),
                errors(parse("review:\n  host: {type: gitea}\n")));
        assertEquals(List.of("windlass.yaml:8:14: Settings.spec.review.host.token would put a secret in Git; set tokenEnv or tokenFile instead"),
                errors(parse("review:\n  host:\n    type: github\n    token: ghp_abc\n")));
        assertEquals(List.of("windlass.yaml:6:24: Settings.spec.review.requireUndiverged must be true or false"),
                errors(parse("review:\n  requireUndiverged: yes please\n")));
    }
}
