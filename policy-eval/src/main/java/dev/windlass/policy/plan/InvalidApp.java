package dev.windlass.policy.plan;

import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.state.Condition;
import java.time.Instant;
import java.util.List;

/** The recorded status of an application whose files have errors: Stalled and not Ready, nothing applied, and its diagnostics. */
final class InvalidApp {
    private InvalidApp() {}

    /** Its status after the pass; an event when its diagnostics changed. */
    static AppStatus status(AppPlan ap, AppStatus prev, Instant now, List<Event> events) {
        List<String> diagnostics = ap.diagnostics().stream().map(Object::toString).toList();
        if (prev == null || !prev.diagnostics().equals(diagnostics)) {
            long errors = ap.diagnostics().stream().filter(Diagnostic::isError).count();
            events.add(new Event.AppInvalid(ap.app(), errors, diagnostics.isEmpty() ? "" : diagnostics.get(0)));
        }
        Condition stalled = new Condition("Stalled", Condition.Status.True, "Invalid", diagnostics.isEmpty() ? "" : diagnostics.get(0), now);
        Condition ready = new Condition("Ready", Condition.Status.False, "Invalid", "the application's files have errors; nothing is applied", now);
        List<Condition> conds = List.of(ready.since(prev == null ? null : prev.condition("Ready")),
                stalled.since(prev == null ? null : prev.condition("Stalled")));
        if (prev == null) {
            return new AppStatus(ap.app(), ap.definedIn(), ap.revision(), null, true, conds, List.of(), List.of(), diagnostics, null, List.of(), null,
                    List.of(), null, ap.origin());
        }
        return prev.withConditions(conds).withDiagnostics(diagnostics).withOrigin(ap.origin());
    }
}
