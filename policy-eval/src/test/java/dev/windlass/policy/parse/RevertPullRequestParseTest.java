package dev.windlass.policy.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.RolloutPolicy;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code RolloutPolicy.spec.revertPullRequest}: a GitHub or Gitea Provider by name, else a located error. */
public class RevertPullRequestParseTest {
    static String policy(String tier, String revert) {
        return """
                apiVersion: windlass.dev/v1alpha1
                kind: RolloutPolicy
                metadata: {name: waves}
                spec:
                  selector: {matchLabels: {tier: %s}}
                  onFailure: Rollback
                %s
                ---
                """.formatted(tier, revert) + AlertParseTest.PROVIDERS;
    }

    static DesiredState parse(String revert) { return parseSelecting("none-of-the-examples", revert); }

    /** The examples with a RolloutPolicy selecting the applications of {@code tier}, and the Providers of AlertParseTest. */
    public static DesiredState parseSelecting(String tier, String revert) {
        return FreezeParseTest.parse("policies/waves.yaml", policy(tier, revert));
    }

    @Test
    void namesAGitHubProvider() {
        DesiredState s = parse("  revertPullRequest: {providerRef: {name: github}}");
        assertEquals(List.of(), FreezeParseTest.errors(s));
        RolloutPolicy.RevertPullRequest r = s.rolloutPolicies().get("waves").revertPullRequest();
        assertEquals("github", r.providerRef());
        assertEquals("policies/waves.yaml:7:36", r.at().toString());
    }

    @Test
    void withoutItNoneIsOffered() {
        DesiredState s = parse("");
        assertEquals(List.of(), FreezeParseTest.errors(s));
        assertNull(s.rolloutPolicies().get("waves").revertPullRequest());
    }

    @Test
    void aMissingProviderIsALocatedError() {
        assertEquals(List.of("policies/waves.yaml:7:36: RolloutPolicy.spec.revertPullRequest.providerRef names Provider 'gitlab', which no file "
                        + "defines; add a Provider of type github or gitea by that name or name one of: chat, github, ops-hook"),
                FreezeParseTest.errors(parse("  revertPullRequest: {providerRef: {name: gitlab}}")));
    }

    @Test
    void aWrongProviderHoldsNothing() {
        DesiredState s = parseSelecting("frontend", "  revertPullRequest: {providerRef: {name: gitlab}}");
        assertEquals(1, FreezeParseTest.errors(s).size());
        assertEquals(List.of(), FreezeParseTest.invalidApps(s), "the rollout policy is still in use: only no revert is offered");
        assertEquals("waves", s.rolloutOf().get("web"));
    }

    @Test
    void aProviderThatIsNoGitHostIsALocatedError() {
        assertEquals(List.of("policies/waves.yaml:7:36: RolloutPolicy.spec.revertPullRequest.providerRef names Provider 'chat' of type slack; "
                        + "a revert pull request is opened on a Git host: name a Provider of type github or gitea"),
                FreezeParseTest.errors(parse("  revertPullRequest: {providerRef: {name: chat}}")));
    }

    @Test
    void withoutProviderRefItSaysWhatToWrite() {
        assertEquals(List.of("policies/waves.yaml:7:22: RolloutPolicy.spec.revertPullRequest.providerRef is required: "
                + "{name: <a github or gitea Provider's metadata.name>}"), FreezeParseTest.errors(parse("  revertPullRequest: {}")));
    }

    @Test
    void anUnknownFieldIsALocatedError() {
        List<String> errors = FreezeParseTest.errors(parse("  revertPullRequest: {providerRef: {name: github}, draft: true}"));
        assertEquals(1, errors.size(), errors.toString());
        assertEquals(true, errors.get(0).startsWith("policies/waves.yaml:7:52: "), errors.get(0));
    }
}
