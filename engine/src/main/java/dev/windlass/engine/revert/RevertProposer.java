package dev.windlass.engine.revert;

import dev.windlass.engine.alerts.Endpoint;
import dev.windlass.git.Mirror;
import dev.windlass.git.RestoreBranch;
import dev.windlass.githost.GitHost;
import dev.windlass.githost.HostConfig;
import dev.windlass.githost.HostKind;
import dev.windlass.githost.HostOutcome;
import dev.windlass.policy.alert.ProviderType;
import dev.windlass.policy.revert.RevertProposals;
import dev.windlass.policy.revert.RevertRecord;
import java.io.IOException;
import java.time.Instant;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Offers one failed rollout's revert: pushes {@code windlass/revert/<app>-<revision>} to the config repo's origin with
 * one commit on top of the config commit the pass read that restores the application's folder to the last good
 * revision's commit, then asks the Git host for a pull request from it into the config branch. What is recorded
 * comes back as a {@link RevertRecord}; nothing when it is to be tried again by a later pass (the push failed, the
 * host did not answer, answered 5xx or rate-limited), or when the folder already is as the good revision had it.
 */
public final class RevertProposer {
    private static final Logger log = LoggerFactory.getLogger(RevertProposer.class);

    private final Mirror mirror;
    private final String configBranch;
    private final Function<HostConfig, GitHost> hosts;

    /** @param hosts the Git host client for a Provider's address and token ({@link GitHost#of} outside tests) */
    public RevertProposer(Mirror mirror, String configBranch, Function<HostConfig, GitHost> hosts) {
        this.mirror = mirror;
        this.configBranch = configBranch;
        this.hosts = hosts;
    }

    /** What came of one offer: the record to keep, or null to try again later. */
    public RevertRecord propose(RevertProposals.Due due, String source, Endpoint endpoint, Instant now) throws IOException {
        String bad = shortRev(due.revision());
        String good = shortRev(due.goodRevision());
        String where = due.failedClusters().isEmpty() ? "" : " on " + String.join(", ", due.failedClusters());
        String title = "Revert " + due.app() + " to " + good + ": rollout of " + bad + " failed" + where;
        String message = title + "\n\n"
                + "Restores " + due.sourcePath() + "/ to what commit " + due.goodSource() + " had (revision " + due.goodRevision() + ").\n"
                + "The rollout of revision " + due.revision() + " (config commit " + source + ") failed"
                + where + (due.message().isEmpty() ? "" : ": " + due.message()) + "\n\n"
                + "Windlass-Revert-Of: " + due.revision() + "\n";
        RestoreBranch.Outcome pushed = RestoreBranch.push(mirror, due.branch(), source, due.goodSource(), due.sourcePath(), message,
                "Windlass", "windlass@localhost");
        switch (pushed) {
            case RestoreBranch.Outcome.Unchanged u -> {
                log.info("revert of {} {}: {} at the config tip is already as revision {} had it; nothing to offer", due.app(), bad, due.sourcePath(), good);
                return null;
            }
            case RestoreBranch.Outcome.Failed f -> {
                log.warn("revert of {} {}: could not push branch {}, trying again next pass: {}", due.app(), bad, due.branch(), f.reason());
                return null;
            }
            case RestoreBranch.Outcome.Pushed p -> log.info("revert of {} {}: pushed branch {} at {}", due.app(), bad, due.branch(), p.commit());
            case RestoreBranch.Outcome.Existed e -> log.info("revert of {} {}: branch {} exists already at {}", due.app(), bad, due.branch(), e.commit());
        }
        String body = "Windlass rolled out revision `" + due.revision() + "` of **" + due.app() + "** (config commit `" + source + "`) and it failed"
                + where + (due.message().isEmpty() ? "." : ":\n\n> " + due.message()) + "\n\n"
                + "This pull request restores `" + due.sourcePath() + "/` to what commit `" + due.goodSource() + "` had: revision `"
                + due.goodRevision() + "`, the last one every cluster ran healthy. Merge it to make Git agree with the rollback; "
                + "push a fix instead and close it otherwise. Windlass opens no other pull request for this revision.";
        HostConfig config = new HostConfig(due.provider().type() == ProviderType.github ? HostKind.github : HostKind.gitea, endpoint.address(),
                due.provider().repository(), endpoint.token());
        HostOutcome outcome = hosts.apply(config).openPullRequest(due.branch(), configBranch, title, body);
        return switch (outcome) {
            case HostOutcome.PullRequest pr -> {
                log.info("revert of {} {}: pull request #{} {} ({})", due.app(), bad, pr.number(), pr.what(), pr.url());
                yield new RevertRecord(due.app(), due.revision(), due.goodRevision(), due.branch(), RevertRecord.State.Opened, pr.number(), pr.url(), "", now);
            }
            case HostOutcome.Failed f when f.httpStatus() >= 400 && f.httpStatus() < 500 && f.httpStatus() != 408 && f.httpStatus() != 429 -> {
                log.warn("revert of {} {}: the Git host refused the pull request, not asking again: {}", due.app(), bad, f.message());
                yield new RevertRecord(due.app(), due.revision(), due.goodRevision(), due.branch(), RevertRecord.State.Failed, 0, "", f.message(), now);
            }
            case HostOutcome.Failed f -> {
                log.warn("revert of {} {}: no pull request yet, trying again next pass: {}", due.app(), bad, f.message());
                yield null;
            }
            case HostOutcome.Deferred d -> {
                log.info("revert of {} {}: {}; trying again next pass", due.app(), bad, d.reason());
                yield null;
            }
            case HostOutcome.Done d -> throw new IllegalStateException("a pull request call answered " + d);
        };
    }

    private static String shortRev(String revision) {
        return revision.substring(0, Math.min(7, revision.length()));
    }
}
