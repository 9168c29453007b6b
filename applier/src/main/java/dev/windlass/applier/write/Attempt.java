package dev.windlass.applier.write;

import dev.windlass.applier.kube.UnservedKind;

import dev.windlass.applier.kube.Failures;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.ActionResult;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * One action tried once, as data.
 *
 * @param clusterUnreachable the request got no answer at all, so the caller need not try more actions on
 *                           that cluster in this pass (other failures, even transient ones, say nothing about
 *                           the next object)
 */
public record Attempt(ActionResult result, boolean clusterUnreachable) {

    private static final Logger log = LoggerFactory.getLogger(Attempt.class);

    /** Like {@link #run}, for a write sent as a dry run: a success says what would have happened. */
    static Attempt dryRun(Action action, Supplier<ActionResult> write) {
        Attempt attempt = run(action, write, true);
        ActionResult r = attempt.result();
        if (!r.succeeded()) return attempt;
        return new Attempt(new ActionResult(action, r.outcome(), "dry run: " + r.message(), false), false);
    }

    /** Runs {@code write}; failures of the request become a Failed result, never an exception. */
    static Attempt run(Action action, Supplier<ActionResult> write) {
        return run(action, write, false);
    }

    /**
     * Logs carry the action's app and cluster (MDC keys {@code app}, {@code cluster}). A write the cluster refused for
     * good is logged as a warning with the client's stack trace; one the cluster did not answer is the cluster's
     * trouble, reported once per pass by its observation, and logged only at debug, as are refused dry runs (a review's
     * findings, not the engine's trouble).
     */
    private static Attempt run(Action action, Supplier<ActionResult> write, boolean dryRun) {
        try (MDC.MDCCloseable app = MDC.putCloseable("app", action.app());
             MDC.MDCCloseable cluster = MDC.putCloseable("cluster", action.cluster())) {
            return attempt(action, write, dryRun);
        }
    }

    private static Attempt attempt(Action action, Supplier<ActionResult> write, boolean dryRun) {
        try {
            return new Attempt(write.get(), false);
        } catch (KubernetesClientException e) {
            Failures.Kind kind = Failures.classify(e);
            String message = kind == Failures.Kind.Unresolved ? unserved(action, e) : Failures.describe(e);
            if (dryRun || kind.transientFailure()) {
                log.debug("{} failed ({}): {}", action.describe(), kind, message, e);
            } else {
                log.warn("{} failed ({}): {}", action.describe(), kind, message, e);
            }
            return new Attempt(ActionResult.failed(action, message, kind.transientFailure()),
                    kind == Failures.Kind.Unreachable);
        } catch (RuntimeException e) {
            // A bug or an object the client cannot even serialize: retrying the same input will not help.
            log.warn("{} failed unexpectedly", action.describe(), e);
            return new Attempt(ActionResult.failed(action, "unexpected error: " + e, false), false);
        }
    }

    /** The client's own words for a kind missing from discovery mean nothing to someone reading a status file. */
    private static String unserved(Action action, KubernetesClientException e) {
        if (!(e instanceof UnservedKind u)) return Failures.describe(e);
        return "the cluster does not serve " + u.kind() + " in " + u.apiVersion() + " (yet): is its CustomResourceDefinition installed?";
    }
}
