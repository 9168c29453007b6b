package dev.windlass.applier.observe;

import static dev.windlass.applier.observe.BodyFields.number;

import java.util.Map;
import java.util.regex.Pattern;

/**
 * Kinds that report through status conditions: Jobs, and any kind Windlass knows nothing special about,
 * read by the common conventions ({@code Ready}, {@code Stalled}, {@code Reconciling}, observed generation).
 */
final class ConditionHealth {

    /** A Ready=False with a reason like these is a controller still at work, not a failure... */
    private static final Pattern IN_PROGRESS = Pattern.compile("(?i).*(progress|reconciling|pending|creating|updating"
            + "|waiting|initializing|provisioning|installing|upgrading|starting).*");
    /** ...unless the reason also says it went wrong ("UpgradeFailed", "CreatingError"). */
    private static final Pattern WENT_WRONG = Pattern.compile("(?i).*(fail|error|invalid|exceeded|denied|forbidden).*");

    private ConditionHealth() {}

    static Assessment job(Map<String, Object> j) {
        var failed = BodyFields.condition(j, "Failed").filter(c -> "True".equals(c.get("status")));
        if (failed.isPresent()) return Assessment.degraded(explain(failed.get(), "Job failed"));
        var complete = BodyFields.condition(j, "Complete").filter(c -> "True".equals(c.get("status")));
        if (complete.isPresent()) return Assessment.healthy(explain(complete.get(), ""));
        if (BodyFields.isTrue(j, "spec", "suspend")) return Assessment.suspended("Job is suspended");
        return Assessment.progressing("Job is running (" + number(j, 0, "status", "active") + " active)");
    }

    static Assessment generic(Map<String, Object> o) {
        if (BodyFields.map(o, "status").isEmpty()) return Assessment.HEALTHY;
        if (BodyFields.has(o, "status", "observedGeneration")) {
            long observed = number(o, 0, "status", "observedGeneration");
            long generation = number(o, 0, "metadata", "generation");
            if (observed < generation) {
                return Assessment.progressing("Status is for generation " + observed + ", the object is at " + generation);
            }
        }
        var stalled = BodyFields.condition(o, "Stalled").filter(c -> "True".equals(c.get("status")));
        if (stalled.isPresent()) return Assessment.degraded(explain(stalled.get(), "Stalled"));
        var reconciling = BodyFields.condition(o, "Reconciling").filter(c -> "True".equals(c.get("status")));
        if (reconciling.isPresent()) return Assessment.progressing(explain(reconciling.get(), "Reconciling"));
        var ready = BodyFields.condition(o, "Ready");
        if (ready.isEmpty()) return Assessment.HEALTHY;
        String status = String.valueOf(ready.get().get("status"));
        String reason = String.valueOf(ready.get().getOrDefault("reason", ""));
        return switch (status) {
            case "True" -> Assessment.HEALTHY;
            case "False" -> IN_PROGRESS.matcher(reason).matches() && !WENT_WRONG.matcher(reason).matches()
                    ? Assessment.progressing(explain(ready.get(), "Not ready"))
                    : Assessment.degraded(explain(ready.get(), "Not ready"));
            default -> Assessment.progressing(explain(ready.get(), "Readiness unknown"));
        };
    }

    /** The condition's message, else its reason, else {@code fallback}. */
    private static String explain(Map<String, Object> condition, String fallback) {
        Object message = condition.get("message");
        if (message != null && !message.toString().isBlank()) return message.toString();
        Object reason = condition.get("reason");
        return reason != null && !reason.toString().isBlank() ? reason.toString() : fallback;
    }
}
