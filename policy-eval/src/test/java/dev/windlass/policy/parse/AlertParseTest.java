package dev.windlass.policy.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.alert.Alert;
import dev.windlass.policy.alert.AlertKind;
import dev.windlass.policy.alert.Provider;
import dev.windlass.policy.alert.ProviderType;
import dev.windlass.policy.alert.Severity;
import dev.windlass.policy.model.DesiredState;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AlertParseTest {
    static final String PROVIDERS = """
            apiVersion: windlass.dev/v1alpha1
            kind: Provider
            metadata: {name: ops-hook}
            spec:
              type: webhook
              address: https://hooks.example.com/windlass
              secretRef: {name: ops-hook}
            ---
            apiVersion: windlass.dev/v1alpha1
            kind: Provider
            metadata: {name: github}
            spec:
              type: github
              repository: acme/fleet-config
              secretRef: {name: github-token}
            ---
            apiVersion: windlass.dev/v1alpha1
            kind: Provider
            metadata: {name: chat}
            spec:
              type: slack
              secretRef: {name: slack-url}
            """;
    static final String ALERT = """
            apiVersion: windlass.dev/v1alpha1
            kind: Alert
            metadata: {name: rollouts}
            spec:
              providerRef: {name: ops-hook}
              eventKinds: [WaveStarted, WaveFailed, RolledBack]
              severity: warning
              applicationSelector: {matchLabels: {tier: frontend}}
              clusterSelector: {matchLabels: {region: eu}}
            """;

    static DesiredState parse(String text) { return FreezeParseTest.parse("alerts/alerts.yaml", text); }

    static List<String> errors(String text) { return FreezeParseTest.errors(parse(text)); }

    @Test
    void readsProvidersAndAlerts() {
        DesiredState s = parse(PROVIDERS + "---\n" + ALERT);
        assertEquals(List.of(), FreezeParseTest.errors(s));
        Provider hook = s.alerting().providers().get("ops-hook");
        assertEquals(ProviderType.webhook, hook.type());
        assertEquals("https://hooks.example.com/windlass", hook.address());
        assertEquals("ops-hook", hook.secretRef());
        assertEquals("alerts/alerts.yaml:6:12", hook.addressAt().toString());
        Provider gh = s.alerting().providers().get("github");
        assertEquals("acme/fleet-config", gh.repository());
        assertNull(gh.address());
        Alert a = s.alerting().alerts().get(0);
        assertEquals("ops-hook", a.providerRef());
        assertEquals(Set.of(AlertKind.WaveStarted, AlertKind.WaveFailed, AlertKind.RolledBack), a.eventKinds());
        assertEquals(Severity.warning, a.severity());
        assertEquals(Map.of("tier", "frontend"), a.appSelector().matchLabels());
        assertEquals(Map.of("region", "eu"), a.clusterSelector().matchLabels());
    }

    @Test
    void anAlertWithoutFiltersTakesEverything() {
        DesiredState s = parse(PROVIDERS + "---\napiVersion: windlass.dev/v1alpha1\nkind: Alert\nmetadata: {name: all}\nspec: {providerRef: {name: chat}}\n");
        assertEquals(List.of(), FreezeParseTest.errors(s));
        Alert a = s.alerting().alerts().get(0);
        assertEquals(Set.of(), a.eventKinds());
        assertEquals(Severity.info, a.severity());
        assertNull(a.appSelector());
        assertNull(a.clusterSelector());
    }

    @Test
    void providerErrorsAreLocated() {
        String head = "apiVersion: windlass.dev/v1alpha1\nkind: Provider\nmetadata: {name: p}\nspec:\n";
        assertEquals(List.of("alerts/alerts.yaml:5:3: Provider.spec.type is required; use one of webhook, slack, msteams, github, gitea, githubdeployments"),
                errors(head + "  address: https://x.example.com/\n"));
        assertEquals(List.of("alerts/alerts.yaml:5:9: p.spec.type is 'pagerduty'; use one of webhook, slack, msteams, github, gitea, githubdeployments"),
                errors(head + "  type: pagerduty\n").stream().map(e -> e.replace("Provider.spec", "p.spec")).toList());
        assertEquals(List.of("alerts/alerts.yaml:6:12: Provider.spec.address of a slack Provider is its incoming webhook URL, a credential that must not be in Git; "
                        + "remove it and put the URL under the key 'address' of the Secret named by spec.secretRef"),
                errors(head + "  type: slack\n  address: https://hooks.slack.com/services/T/B/X\n  secretRef: {name: s}\n"));
        assertEquals(List.of("alerts/alerts.yaml:5:3: Provider.spec.secretRef is required for a msteams Provider: the Secret holding its incoming webhook URL (key 'address')"),
                errors(head + "  type: msteams\n"));
        assertEquals(List.of("alerts/alerts.yaml:6:12: Provider.spec.address carries a user or password; credentials must not be in Git: remove them from the URL and "
                        + "put a token under the key 'token' of the Secret named by spec.secretRef"),
                errors(head + "  type: webhook\n  address: https://me:hunter2@hooks.example.com/x\n"));
        assertEquals(List.of("alerts/alerts.yaml:6:12: Provider.spec.address 'ftp://hooks.example.com/x' is not an http or https URL; write e.g. https://hooks.example.com/windlass"),
                errors(head + "  type: webhook\n  address: ftp://hooks.example.com/x\n"));
        assertEquals(List.of("alerts/alerts.yaml:5:3: Provider.spec.address or spec.secretRef is required for a webhook Provider: where to send the events"),
                errors(head + "  type: webhook\n"));
        assertEquals(List.of("alerts/alerts.yaml:5:3: Provider.spec.repository is required for a gitea Provider: the owner/name the config commits are in"),
                errors(head + "  type: gitea\n  address: https://gitea.example.com\n  secretRef: {name: t}\n"));
        assertEquals(List.of("alerts/alerts.yaml:7:15: Provider.spec.repository 'acme' is not owner/name; write e.g. acme/fleet-config"),
                errors(head + "  type: github\n  secretRef: {name: t}\n  repository: acme\n"));
        assertEquals(List.of("alerts/alerts.yaml:7:15: Provider.spec.repository is for github, gitea and githubdeployments Providers only; remove it"),
                errors(head + "  type: webhook\n  address: https://x.example.com/\n  repository: a/b\n"));
        assertEquals(List.of("alerts/alerts.yaml:5:3: Provider.spec.repository is required for a githubdeployments Provider: the owner/name the config commits are in",
                        "alerts/alerts.yaml:5:3: Provider.spec.secretRef is required for a githubdeployments Provider: the Secret holding its API token (key 'token')"),
                errors(head + "  type: githubdeployments\n"));
        assertEquals(List.of("alerts/alerts.yaml:7:15: Provider.spec.repository 'acme/fleet/x' is not owner/name; write e.g. acme/fleet-config"),
                errors(head + "  type: githubdeployments\n  secretRef: {name: t}\n  repository: acme/fleet/x\n"));
        assertEquals(List.of("alerts/alerts.yaml:6:12: Provider.spec.address carries a user or password; credentials must not be in Git: remove them from the URL and "
                        + "put a token under the key 'token' of the Secret named by spec.secretRef"),
                errors(head + "  type: githubdeployments\n  address: https://me:ghp_x@github.example.com/api/v3\n  secretRef: {name: t}\n  repository: a/b\n"));
        assertEquals(List.of(), errors(head + "  type: githubdeployments\n  secretRef: {name: t}\n  repository: acme/fleet-config\n"));
        assertTrue(errors(head + "  type: webhook\n  address: https://x.example.com/\n  channel: ops\n").get(0)
                .startsWith("alerts/alerts.yaml:7:3: unknown field 'channel' in Provider.spec; known fields: type, address, secretRef, repository"));
        assertEquals(List.of("alerts/alerts.yaml:5:21: Provider.spec.secretRef.name '../../etc' is not a Secret name: use lowercase letters, digits, "
                        + "'-' and '.', starting and ending with a letter or digit"),
                errors(head + "  secretRef: {name: ../../etc}\n  type: webhook\n  address: https://x.example.com/\n"));
        assertEquals(List.of("alerts/alerts.yaml:5:14: Provider.spec.secretRef.name is required"),
                errors(head + "  secretRef: {}\n  type: webhook\n  address: https://x.example.com/\n").stream().map(e -> e.replaceAll(" \\(.*", "")).toList());
    }

    @Test
    void alertErrorsAreLocated() {
        String head = PROVIDERS + "---\napiVersion: windlass.dev/v1alpha1\nkind: Alert\nmetadata: {name: a}\nspec:\n";
        int line = PROVIDERS.split("\n").length + 6;
        assertEquals(List.of("alerts/alerts.yaml:" + line + ":3: Alert.spec.providerRef is required: {name: <a Provider's metadata.name>}"),
                errors(head + "  severity: error\n"));
        assertEquals(List.of("alerts/alerts.yaml:" + line + ":16: Alert.spec.providerRef names Provider 'pager', which no file defines; "
                        + "add that Provider or name one of: chat, github, ops-hook"),
                errors(head + "  providerRef: {name: pager}\n"));
        assertEquals(List.of("alerts/alerts.yaml:" + (line + 1) + ":15: Alert.spec.eventKinds[1] is 'WaveFailure', not an event kind; use some of "
                        + String.join(", ", Alert.kindNames()) + " (or leave eventKinds out for all of them)"),
                errors(head + "  providerRef: {name: chat}\n  eventKinds: [WaveStarted, WaveFailure]\n"));
        assertEquals(List.of("alerts/alerts.yaml:" + (line + 1) + ":13: Alert.spec.severity is 'critical'; use one of info, warning, error"),
                errors(head + "  providerRef: {name: chat}\n  severity: critical\n"));
        assertEquals(List.of("alerts/alerts.yaml:" + (line + 1) + ":3: unknown field 'events' in Alert.spec; known fields: providerRef, eventKinds, severity, "
                        + "applicationSelector, clusterSelector"),
                errors(head + "  providerRef: {name: chat}\n  events: [x]\n"));
    }

    @Test
    void twoProvidersOfOneNameAreNeitherUsed() {
        String twice = PROVIDERS + "---\napiVersion: windlass.dev/v1alpha1\nkind: Provider\nmetadata: {name: chat}\nspec: {type: msteams, secretRef: {name: t}}\n";
        DesiredState s = parse(twice);
        List<String> errors = FreezeParseTest.errors(s);
        assertEquals(2, errors.size(), errors.toString());
        assertTrue(errors.get(0).contains("Provider 'chat' is also defined at alerts/alerts.yaml:"), errors.toString());
        assertNull(s.alerting().providers().get("chat"));
        assertTrue(s.alerting().providers().containsKey("ops-hook"));
    }

    @Test
    void aBrokenProviderHoldsNothingElse() {
        DesiredState s = parse(PROVIDERS.replace("type: github", "type: gitlab") + "---\n" + ALERT);
        assertEquals(1, FreezeParseTest.errors(s).size(), FreezeParseTest.errors(s).toString());
        assertEquals(Set.of("chat", "ops-hook"), s.alerting().providers().keySet());
        assertEquals(1, s.alerting().alerts().size());
        assertTrue(FreezeParseTest.errors(s).get(0).startsWith("alerts/alerts.yaml:13:9: Provider.spec.type is 'gitlab'"), FreezeParseTest.errors(s).toString());
        assertEquals(FreezeParseTest.parse("alerts/none.yaml", "# nothing\n").apps().keySet(), s.apps().keySet());
    }
}
