package dev.windlass.githost;

import java.time.Instant;

/** What came of one call to the Git host. HTTP-level problems are outcomes, never exceptions. */
public sealed interface HostOutcome {

    /**
     * The host did it. {@code what} is {@code created}, {@code edited} or {@code unchanged} for comments (then
     * {@code id} is the comment id), {@code status} for commit statuses (then {@code id} is 0).
     */
    record Done(String what, long id) implements HostOutcome {}

    /**
     * A pull request: {@code what} is {@code created}, or {@code found} when one from the same branch was there already
     * (opened by an earlier try whose answer was lost, or by hand).
     */
    record PullRequest(String what, long number, String url) implements HostOutcome {}

    /** Rate limited for longer than Windlass waits in one go: try again after {@code until}. */
    record Deferred(Instant until, String reason) implements HostOutcome {}

    /**
     * The host refused or could not be reached ({@code httpStatus} 0 = no answer); {@code message} says what is
     * wrong and how to fix it, and never contains the token.
     */
    record Failed(int httpStatus, String message) implements HostOutcome {}
}
