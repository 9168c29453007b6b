package dev.windlass.applier.reads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.applier.support.MockCluster;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ConfigMapListBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A LIST read page by page, against a server that pages well and one that does not. */
class ListingTest {

    @Test void pagesAreFollowedToTheEndAndARepeatedContinueTokenStopsTheRead() {
        try (MockCluster cluster = MockCluster.expectations()) {
            cluster.server().expect().get().withPath("/api/v1/namespaces/n/configmaps?limit=100")
                    .andReturn(200, new ConfigMapListBuilder().withNewMetadata().withContinue("p2").endMetadata()
                            .addToItems(new ConfigMapBuilder().withNewMetadata().withName("b").withNamespace("n").endMetadata().build()).build())
                    .once();
            cluster.server().expect().get().withPath("/api/v1/namespaces/n/configmaps?continue=p2&limit=100")
                    .andReturn(200, new ConfigMapListBuilder().withNewMetadata().endMetadata()
                            .addToItems(new ConfigMapBuilder().withNewMetadata().withName("a").withNamespace("n").endMetadata().build()).build())
                    .once();
            List<Map<String, Object>> read = Listing.list(cluster.client(), Query.of("v1", "ConfigMap").inNamespace("n"));
            assertEquals(List.of("n/a", "n/b"), read.stream().map(Listing::key).toList(), "both pages, in key order");

            // A broken server (an aggregated API, say) that answers a page with the token it was sent.
            cluster.server().expect().get().withPath("/api/v1/namespaces/m/configmaps?limit=100")
                    .andReturn(200, new ConfigMapListBuilder().withNewMetadata().withContinue("same").endMetadata().build()).once();
            cluster.server().expect().get().withPath("/api/v1/namespaces/m/configmaps?continue=same&limit=100")
                    .andReturn(200, new ConfigMapListBuilder().withNewMetadata().withContinue("same").endMetadata().build()).always();
            KubernetesClientException e = assertThrows(KubernetesClientException.class,
                    () -> Listing.list(cluster.client(), Query.of("v1", "ConfigMap").inNamespace("m")));
            assertTrue(e.getMessage().contains("answered a page with a continue token it had already given"), e.getMessage());

            // Or one that goes round two tokens.
            cluster.server().expect().get().withPath("/api/v1/namespaces/k/configmaps?limit=100")
                    .andReturn(200, new ConfigMapListBuilder().withNewMetadata().withContinue("x").endMetadata().build()).once();
            cluster.server().expect().get().withPath("/api/v1/namespaces/k/configmaps?continue=x&limit=100")
                    .andReturn(200, new ConfigMapListBuilder().withNewMetadata().withContinue("y").endMetadata().build()).always();
            cluster.server().expect().get().withPath("/api/v1/namespaces/k/configmaps?continue=y&limit=100")
                    .andReturn(200, new ConfigMapListBuilder().withNewMetadata().withContinue("x").endMetadata().build()).always();
            e = assertThrows(KubernetesClientException.class, () -> Listing.list(cluster.client(), Query.of("v1", "ConfigMap").inNamespace("k")));
            assertTrue(e.getMessage().contains("a continue token it had already given"), e.getMessage());
        }
    }

    @Test void aPageOfMetadataIsReadForKeysAndVersionsWhateverElseItsItemsCarry() throws Exception {
        // As a server answers a LIST asked for metadata only: the list's own metadata after the items, an item's
        // managed fields (nested objects and arrays holding fields named like the ones read) before its name.
        String metadataOnly = """
                {"kind":"PartialObjectMetadataList","apiVersion":"meta.k8s.io/v1","items":[
                  {"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{
                    "managedFields":[{"manager":"windlass","fieldsV1":{"f:metadata":{"name":"not-this","resourceVersion":"0"}}}],
                    "name":"b","namespace":"n","resourceVersion":"12","labels":{"name":"x"}}},
                  {"metadata":{"namespace":"n","name":"a","resourceVersion":"7","annotations":{"namespace":"y"}}}],
                 "metadata":{"resourceVersion":"99","continue":"next-page"}}""";
        Map<String, String> out = new java.util.HashMap<>();
        assertEquals("next-page", Listing.versionsPage(metadataOnly.getBytes(java.nio.charset.StandardCharsets.UTF_8), out));
        assertEquals(Map.of("n/a", "7", "n/b", "12"), out);

        // A server that does not serve metadata only sends the whole objects; a cluster-scoped kind has no namespace;
        // the last page has no continue token.
        String whole = """
                {"kind":"NamespaceList","apiVersion":"v1","metadata":{"resourceVersion":"5"},"items":[
                  {"kind":"Namespace","metadata":{"name":"n","resourceVersion":"3"},"spec":{"finalizers":["kubernetes"]},
                   "status":{"phase":"Active","metadata":{"name":"not-this"}}}]}""";
        out.clear();
        assertEquals("", Listing.versionsPage(whole.getBytes(java.nio.charset.StandardCharsets.UTF_8), out));
        assertEquals(Map.of("n", "3"), out);

        assertThrows(java.io.IOException.class, () -> Listing.versionsPage("[]".getBytes(java.nio.charset.StandardCharsets.UTF_8), out));
    }
}
