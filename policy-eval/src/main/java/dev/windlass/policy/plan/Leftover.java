package dev.windlass.policy.plan;

import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.state.Sync;
import dev.windlass.policy.state.TargetStatus;
import java.util.ArrayList;
import java.util.List;

/** What is left of a target being removed (an application that left a cluster, or was deleted from Git) after a pass. */
final class Leftover {
    private Leftover() {}

    /** The target with what is still on the cluster; null when everything it had is gone. A refused removal is an event. */
    static TargetStatus of(TargetStatus t, List<ActionResult> results, List<Event> events, String app, HoldReason hold) {
        if (t == null) return null;
        var inventory = new ArrayList<>(t.inventory());
        List<String> failures = new ArrayList<>();
        for (ActionResult r : results) {
            if (r.succeeded()) {
                inventory.removeIf(e -> e.ref().equals(r.action().object()));
            } else {
                failures.add(r.action().describe() + " failed: " + r.message());
                events.add(new Event.RemovalFailed(app, r.action().cluster(), r.action().operation(), r.action().object(), r.message()));
            }
        }
        inventory.removeIf(e -> e.gcIs(Manifest.GcPolicy.NEVER));
        if (inventory.isEmpty()) return null;
        String message = !failures.isEmpty() ? String.join("; ", failures)
                : hold != null ? "removal pending: " + hold.text() : "removal pending: cluster not reachable";
        return new TargetStatus(t.cluster(), t.revision(), Sync.OutOfSync, t.health(), message, List.of(), inventory);
    }
}
