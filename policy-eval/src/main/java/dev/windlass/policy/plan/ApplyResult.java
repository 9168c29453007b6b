package dev.windlass.policy.plan;

import java.util.List;

/** Everything one execution of a plan did, action by action, in plan order. */
public record ApplyResult(List<ActionResult> results) {
    public ApplyResult { results = List.copyOf(results); }

    public static final ApplyResult NOTHING = new ApplyResult(List.of());

    public long failures() { return results.stream().filter(r -> !r.succeeded()).count(); }

    public long writes() {
        return results.stream().filter(r -> switch (r.outcome()) {
            case Created, Configured, Deleted -> true;
            default -> false;
        }).count();
    }
}
