package dev.windlass.githost;

/** Ends a call with an outcome other than success; caught at the edge of {@link GitHost}, never leaves it. */
final class HostStop extends Exception {

    private final HostOutcome outcome;

    HostStop(HostOutcome outcome) {
        super(null, null, false, false);
        this.outcome = outcome;
    }

    HostOutcome outcome() {
        return outcome;
    }

    boolean notFound() {
        return outcome instanceof HostOutcome.Failed failed && failed.httpStatus() == 404;
    }
}
