package dev.windlass.engine.alerts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.parse.RepoParser;
import dev.windlass.policy.source.MapSnapshot;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProviderEndpointsTest {
    static final String ALERTS = """
            apiVersion: windlass.dev/v1alpha1
            kind: Provider
            metadata: {name: metadata}
            spec:
              type: webhook
              address: http://169.254.169.254/latest/meta-data
            ---
            apiVersion: windlass.dev/v1alpha1
            kind: Provider
            metadata: {name: good}
            spec:
              type: webhook
              address: https://public.example.test/hook
              secretRef: {name: good-hook}
            ---
            apiVersion: windlass.dev/v1alpha1
            kind: Provider
            metadata: {name: chat}
            spec:
              type: slack
              secretRef: {name: chat}
            ---
            apiVersion: windlass.dev/v1alpha1
            kind: Provider
            metadata: {name: gh}
            spec:
              type: github
              repository: acme/fleet
              secretRef: {name: no-token}
            ---
            apiVersion: windlass.dev/v1alpha1
            kind: Alert
            metadata: {name: to-metadata}
            spec: {providerRef: {name: metadata}}
            ---
            apiVersion: windlass.dev/v1alpha1
            kind: Alert
            metadata: {name: to-good}
            spec: {providerRef: {name: good}}
            """;

    @TempDir Path secrets;

    static DesiredState desired() {
        Map<String, byte[]> files = new TreeMap<>();
        files.put("alerts.yaml", ALERTS.getBytes(StandardCharsets.UTF_8));
        return RepoParser.parse(new MapSnapshot("c0ffee", files));
    }

    void secret(String name, String key, String value) throws Exception {
        Files.createDirectories(secrets.resolve(name));
        Files.writeString(secrets.resolve(name).resolve(key), value + "\n");
    }

    @Test
    void aRefusedProviderIsALocatedErrorOnThatProviderOnly() throws Exception {
        secret("good-hook", "hmacKey", "s3cret-hmac-key");
        secret("chat", "address", "https://me.example.test/services/T000/B000/XXXXXXXXSECRET");
        DesiredState d = desired();
        assertEquals(List.of(), d.diagnostics().stream().filter(Diagnostic::isError).toList(), "the repo itself is fine");
        ProviderEndpoints endpoints = new ProviderEndpoints(new AlertSecrets(secrets), AddressGuardTest.STRICT);
        ProviderEndpoints.Checked checked = endpoints.check(d.alerting());
        List<String> errors = checked.refusals().stream().map(Object::toString).toList();
        assertEquals(List.of(
                "alerts.yaml:6:12: Provider 'metadata' may not be called: 169.254.169.254 is a link-local address (where cloud metadata services answer); "
                        + "the engine sends alerts only to public addresses unless it runs with --alerts-allow-private-addresses",
                "alerts.yaml:16:1: Provider 'chat' may not be called: me.example.test (127.0.0.1) is a loopback address; the engine sends alerts only to public "
                        + "addresses unless it runs with --alerts-allow-private-addresses",
                "alerts.yaml:23:1: Provider 'gh' needs an API token: Secret no-token has no key 'token'").stream().sorted().toList(),
                errors.stream().sorted().toList());
        assertTrue(errors.stream().noneMatch(e -> e.contains("SECRET") || e.contains("s3cret")), "no Secret value in any error: " + errors);
        assertEquals(List.of("good"), List.copyOf(checked.endpoints().keySet()));
        assertEquals("s3cret-hmac-key", checked.endpoints().get("good").hmacKey());
        assertFalse(checked.endpoints().get("good").toString().contains("s3cret"));

        DesiredState held = ProviderEndpoints.withRefusals(d, checked);
        assertEquals(List.of("good"), List.copyOf(held.alerting().providers().keySet()));
        assertEquals(List.of("to-good"), held.alerting().alerts().stream().map(a -> a.name()).toList(), "the Alert of a refused Provider is left out");
        assertEquals(3, held.diagnostics().stream().filter(Diagnostic::isError).count());
    }

    @Test
    void theEngineFlagAllowsPrivateAddresses() throws Exception {
        secret("chat", "address", "http://127.0.0.1:9/hook");
        secret("no-token", "token", "ghp_example");
        ProviderEndpoints allowing = new ProviderEndpoints(new AlertSecrets(secrets), new AddressGuard(true, AddressGuardTest::resolve));
        ProviderEndpoints.Checked checked = allowing.check(desired().alerting());
        assertEquals(List.of(), checked.refusals());
        assertEquals(List.of("chat", "gh", "good", "metadata"), List.copyOf(checked.endpoints().keySet()));
        assertEquals(ProviderEndpoints.GITHUB_API, checked.endpoints().get("gh").address());
    }
}
