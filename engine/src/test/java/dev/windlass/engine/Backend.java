package dev.windlass.engine;

import io.fabric8.kubernetes.client.KubernetesClient;

/** Where scenario clusters come from: the embedded sandbox or a real API server. The same scenarios run on both. */
public interface Backend {

    /** The {@code spec.connection} of a Cluster object for this backend, as YAML flow text. */
    String connection(String cluster);

    KubernetesClient client(String cluster);

    /** Writes (POST/PUT/PATCH/DELETE) the engine sent to the cluster since the last reset, counted by the server side. */
    long writes(String cluster);

    void resetWrites(String cluster);
}
