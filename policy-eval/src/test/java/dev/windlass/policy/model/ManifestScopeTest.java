package dev.windlass.policy.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.windlass.policy.diff.ContentHash;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A ClusterIssuer read before its CustomResourceDefinition was known (it comes with another application's chart) got
 * the application's namespace; once the definition says it is cluster-scoped, it has none.
 */
class ManifestScopeTest {

    private static Manifest issuer(String namespace) {
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("name", "letsencrypt");
        if (!namespace.isEmpty()) meta.put("namespace", namespace);
        Map<String, Object> body = Map.of("apiVersion", "cert-manager.io/v1", "kind", "ClusterIssuer", "metadata", meta,
                "spec", Map.of("acme", Map.of("server", "https://acme-v02.api.letsencrypt.org/directory")));
        return new Manifest(new ObjectRef("cert-manager.io", "ClusterIssuer", namespace, "letsencrypt"), "cert-manager.io/v1", body,
                SourceLocation.file("infrastructure/configs/cluster-issuers.yaml"), ContentHash.of(body), 0, Manifest.ApplyMode.ALWAYS,
                Manifest.GcPolicy.ON_APP_UPDATE, false);
    }

    @Test
    void aClusterScopedCopyHasNoNamespaceAndTheHashOfWhatItSends() {
        Manifest read = issuer("default");
        Manifest scoped = read.clusterScoped();
        assertEquals(new ObjectRef("cert-manager.io", "ClusterIssuer", "", "letsencrypt"), scoped.ref());
        assertEquals(Map.of("name", "letsencrypt"), scoped.body().get("metadata"));
        assertEquals(issuer("").hash(), scoped.hash());
        assertNotEquals(read.hash(), scoped.hash());
        assertEquals(read.body().get("spec"), scoped.body().get("spec"));
        assertSame(scoped, scoped.clusterScoped(), "already without a namespace: the same object");
    }

    @Test
    void everyVariantOfAnApplicationChangesAndItsRevisionIsMarked() {
        Manifest read = issuer("default");
        Application app = new Application("staging-infra-configs", Map.of(), "infrastructure/configs", "default", null, null, List.of(), false,
                List.of(read), "abc", List.of(), SourceLocation.file("clusters/staging/infrastructure.yaml"), Map.of(), null,
                Map.of("staging", new Variant("default", List.of(read), "r1")), null);
        Application changed = app.withEachManifest(Manifest::clusterScoped, "m");
        assertEquals("abc+m", changed.revision());
        assertEquals("", changed.manifests().get(0).ref().namespace());
        assertEquals("", changed.variants().get("staging").manifests().get(0).ref().namespace());
        assertEquals("r1+m", changed.variants().get("staging").rendered());
    }
}
