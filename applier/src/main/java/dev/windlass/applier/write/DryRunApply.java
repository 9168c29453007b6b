package dev.windlass.applier.write;

import dev.windlass.applier.kube.Target;
import dev.windlass.policy.model.Manifest;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;

/**
 * The object as the API server would store it if Windlass applied {@code manifest} now: a server-side apply sent with
 * {@code dryRun=All}, forcing conflicts (a field someone else took is exactly what the answer must show), with the same
 * body and field manager a real apply sends. Nothing is stored.
 */
public final class DryRunApply {
    private DryRunApply() {}

    public static Map<String, Object> answer(KubernetesClient client, String app, Manifest manifest) {
        PreparedObject prepared = PreparedObject.of(app, manifest, false);
        return new Target(client, manifest.apiVersion(), manifest.ref(), true)
                .serverSideApply(prepared.body(), ServerSideApply.FIELD_MANAGER, true);
    }
}
