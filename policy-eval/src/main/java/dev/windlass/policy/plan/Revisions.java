package dev.windlass.policy.plan;

import dev.windlass.policy.model.Application;

/**
 * Earlier revisions of applications, for rollbacks: the engine reads them from the commit recorded
 * with the revision. The planner stays pure; it only asks.
 */
public interface Revisions {

    /** The application as it was at {@code source}, or null when that commit does not hold {@code revision}. */
    Application find(String app, String revision, String source);

    Revisions NONE = (app, revision, source) -> null;
}
