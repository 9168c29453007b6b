package dev.windlass.applier.kube;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Map;

/**
 * An object's body as it is sent: the JSON the client library writes for it, made once.
 *
 * <p>The body goes through the library's model of its kind, as when the library's typed operations sent it: the model
 * writes each value as its field's type (a YAML {@code 1} in a ConfigMap's data is sent as the string "1", which a
 * real API server requires) and refuses a value it cannot hold (a count past int32) with a JSON processing error,
 * which {@link Failures} calls unsendable, before any request. Kinds the library does not know are sent as they are.
 *
 * @param json what goes on the wire
 */
public record SentBody(String json) {

    public static SentBody of(KubernetesClient client, Map<String, Object> tree) {
        KubernetesSerialization serialization = client.getKubernetesSerialization();
        Object typed = serialization.unmarshal(JsonTree.toJson(tree));
        return new SentBody(serialization.asJson(typed));
    }
}
