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
}
