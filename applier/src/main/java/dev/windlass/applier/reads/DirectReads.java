package dev.windlass.applier.reads;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Map;

/** One LIST per read: nothing kept, nothing opened. For one-off commands, where a watch would outlive its use. */
public record DirectReads(KubernetesClient client) implements ClusterReads {

    @Override public List<Map<String, Object>> read(Query query) { return Listing.list(client, query); }
}
