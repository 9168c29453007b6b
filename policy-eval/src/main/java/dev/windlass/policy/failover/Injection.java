package dev.windlass.policy.failover;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.state.PreservedValue;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes preserved values into an application's objects for one cluster: each value becomes a label on the
 * object it was read from on the old cluster. The application's revision is unchanged: carrying state over is
 * not a new version of the application.
 */
public final class Injection {
    private Injection() {}

    /** @param app the application as the cluster gets it ({@link Application#on}) */
    public static Application into(Application app, List<PreservedValue> values) {
        if (values.isEmpty()) return app;
        List<Manifest> manifests = app.manifests().stream().map(m -> {
            Map<String, String> labels = new TreeMap<>();
            for (PreservedValue v : values) if (v.object().equals(m.ref().toString())) labels.put(v.label(), v.value());
            return labels.isEmpty() || m.implicit() ? m : m.withLabels(labels);
        }).toList();
        return app.withManifests(manifests);
    }
}
