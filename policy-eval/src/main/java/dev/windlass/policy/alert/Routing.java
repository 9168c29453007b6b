package dev.windlass.policy.alert;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.model.DesiredState;
import java.util.ArrayList;
import java.util.TreeSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Which provider gets which event: each event goes once to each provider at least one Alert sends it to, providers by name. */
public final class Routing {
    private Routing() {}

    /** One event for one provider. */
    public record Delivery(AlertEvent event, String provider) {}

    public static List<Delivery> route(List<AlertEvent> events, DesiredState desired) {
        Alerting alerting = desired.alerting();
        List<Delivery> out = new ArrayList<>();
        for (AlertEvent e : events) {
            Application app = e.app().isEmpty() ? null : desired.apps().get(e.app());
            Cluster cluster = e.cluster().isEmpty() ? null : desired.clusters().get(e.cluster());
            Map<String, String> appLabels = app == null ? null : app.labels();
            Map<String, String> clusterLabels = cluster == null ? null : cluster.labels();
            Set<String> providers = new TreeSet<>();
            for (Alert a : alerting.alerts()) {
                if (alerting.providers().containsKey(a.providerRef()) && a.takes(e, appLabels, clusterLabels)) providers.add(a.providerRef());
            }
            providers.forEach(p -> out.add(new Delivery(e, p)));
        }
        return out;
    }
}
