package dev.windlass.policy.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.SourceLocation;
import dev.windlass.policy.source.MapSnapshot;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code Application.spec.decryption}: the Secret of the engine's namespace whose keys decrypt the application's SOPS files. */
class ApplicationDecryptionTest {

    private static DesiredState parse(String decryption) {
        String app = "apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: web}\nspec:\n  placement: {clusterSelector: {}}\n"
                + decryption;
        return RepoParser.parse(new MapSnapshot("0".repeat(40), Map.of("apps/web/app.yaml", app.getBytes(StandardCharsets.UTF_8),
                "apps/web/manifests/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\n".getBytes(StandardCharsets.UTF_8))));
    }

    private static List<String> errors(DesiredState d) {
        return d.diagnostics().stream().filter(Diagnostic::isError).map(Diagnostic::toString).toList();
    }

    @Test
    void aSecretRefIsReadWithWhereItsNameIs() {
        DesiredState d = parse("  decryption:\n    provider: sops\n    secretRef:\n      name: web-sops-keys\n");
        assertEquals(List.of(), errors(d));
        assertEquals(new Application.Decryption("web-sops-keys", new SourceLocation("apps/web/app.yaml", 9, 13)), d.apps().get("web").decryption());
    }

    @Test
    void withoutDecryptionTheEnginesKeysAreUsed() {
        assertNull(parse("").apps().get("web").decryption());
    }

    @Test
    void aWrongProviderAMissingRefAndABadNameAreLocatedErrors() {
        assertEquals(List.of("apps/web/app.yaml:7:15: Application.spec.decryption.provider 'vault' is not one Windlass knows; write provider: sops"),
                errors(parse("  decryption:\n    provider: vault\n    secretRef: {name: k}\n")));
        assertEquals(List.of("apps/web/app.yaml:7:5: Application.spec.decryption.secretRef is required: the name of the Secret, in the engine's"
                + " namespace, holding the private keys (*.agekey, *.asc) this application's SOPS files are decrypted with"),
                errors(parse("  decryption:\n    provider: sops\n")));
        assertEquals(List.of("apps/web/app.yaml:8:23: Application.spec.decryption.secretRef.name 'Keys/Other' is not a valid Secret name"
                + " (lowercase letters, digits, '-' and '.')"), errors(parse("  decryption:\n    provider: sops\n    secretRef: {name: Keys/Other}\n")));
        // No namespace may be written: the engine reads its own namespace only.
        assertEquals(List.of("apps/web/app.yaml:8:17: unknown field 'namespace' in Application.spec.decryption.secretRef; known fields: name"),
                errors(parse("  decryption:\n    provider: sops\n    secretRef: {namespace: other, name: k}\n")));
    }
}
