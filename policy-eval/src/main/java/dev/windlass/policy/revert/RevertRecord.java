package dev.windlass.policy.revert;

import java.time.Instant;

/**
 * What was done about one failed revision of one application, as recorded on the status branch
 * ({@code status/reverts.yaml}): at most one record per application and revision, so a restarted engine or another
 * replica never offers the same revert twice.
 *
 * @param branch the branch pushed to the config repo's origin ({@code windlass/revert/<app>-<revision>})
 * @param number the pull request's number (0 unless {@link State#Opened})
 * @param url    the pull request's page ("" unless {@link State#Opened})
 * @param reason why it was not opened ({@link State#Failed}), in words for people; "" otherwise
 */
public record RevertRecord(String app, String revision, String goodRevision, String branch, State state, long number, String url,
                           String reason, Instant at) {

    /** {@code Opened}: the pull request exists; {@code Failed}: the Git host refused it for good (a 4xx), not tried again. */
    public enum State { Opened, Failed }

    public RevertRecord {
        url = url == null ? "" : url;
        reason = reason == null ? "" : reason;
    }

    /** Whether it is about this revision of this application. */
    public boolean about(String application, String rev) { return app.equals(application) && revision.equals(rev); }
}
