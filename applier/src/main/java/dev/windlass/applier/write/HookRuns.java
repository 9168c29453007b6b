package dev.windlass.applier.write;

import dev.windlass.applier.kube.Target;
import dev.windlass.applier.observe.HealthAssessor;
import dev.windlass.policy.model.Hook;
import dev.windlass.policy.model.Hook.DeletePolicy;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.HookResult;
import dev.windlass.policy.state.Health;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Runs a resource hook the plan placed in a sync: deletes the previous hook object first ({@code BeforeHookCreation}),
 * creates it (a {@code generateName} is named by the server), and for a Job or a Pod waits until it finishes; any other
 * kind counts as done once created. Then deletes it if its delete policy says so. The hook object carries the
 * application's {@code windlass.dev/app} label but not Windlass's managed-by label: it is not one of the application's
 * objects, so it is neither observed for drift nor recorded in the inventory nor pruned.
 *
 * <p>Also waits, before a PostSync hook, until the objects the same sync applied are healthy. What to run and in what
 * order the plan says; this class only executes and reports, as a {@link HookResult}.
 */
public final class HookRuns {
    private static final String APP_LABEL = "windlass.dev/app";

    private final Duration timeout;
    private final Duration poll;

    /**
     * @param timeout how long a hook (or the health a PostSync hook waits for) is given to finish; within the cluster's
     *                deadline for the pass, which ends whatever runs longer
     * @param poll    how often the hook's object is read while waiting
     */
    public HookRuns(Duration timeout, Duration poll) {
        this.timeout = timeout;
        this.poll = poll;
    }

    /** Runs the hook of {@code action} (its desired object carries the {@link Hook}). */
    public Attempt run(KubernetesClient client, Action action) {
        return Attempt.run(action, () -> runHook(client, action));
    }

    private ActionResult runHook(KubernetesClient client, Action action) {
        Hook hook = action.desired().hook();
        ObjectRef ref = action.object();
        Target previous = new Target(client, action.apiVersion(), ref);
        if (!hook.generated() && hook.deletePolicies().contains(DeletePolicy.BeforeHookCreation) && previous.get().isPresent()) {
            previous.delete();
            if (!until(() -> previous.get().isEmpty())) {
                return ActionResult.ofHook(action, HookResult.TimedOut, "the previous " + ref.kind() + " " + ref.name() + " was not gone after " + timeout.toSeconds() + " s");
            }
        }
        Map<String, Object> created;
        try {
            created = previous.createAndRead(labelled(action));
        } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
            if (e.getCode() == 0 || e.getCode() >= 500 || e.getCode() == 429) throw e;  // the cluster's trouble: a transient failure
            return ActionResult.ofHook(action, HookResult.NotCreated, dev.windlass.applier.kube.Failures.describe(e));
        }
        String name = created.get("metadata") instanceof Map<?, ?> meta && meta.get("name") instanceof String n ? n : ref.name();
        ObjectRef made = new ObjectRef(ref.group(), ref.kind(), ref.namespace(), name);
        Target live = new Target(client, action.apiVersion(), made);
        HookResult result = awaitFinished(live, made);
        String said = result == HookResult.Succeeded ? "" : ref.kind() + " " + made.name() + (result == HookResult.TimedOut
                ? " did not finish in " + timeout.toSeconds() + " s" : " failed");
        if ((result == HookResult.Succeeded && hook.deletePolicies().contains(DeletePolicy.HookSucceeded))
                || (result.failed() && hook.deletePolicies().contains(DeletePolicy.HookFailed))) {
            live.delete();
        }
        String named = made.name().equals(ref.name()) ? "" : "named " + made.name();
        return ActionResult.ofHook(action, result, result == HookResult.Succeeded ? named : said);
    }

    /**
     * Waits until every object of {@code applied} on the cluster is Healthy, as the observation would assess it.
     *
     * @return empty when they are, otherwise the first one that is not, with its health and why
     */
    public Optional<String> awaitHealthy(KubernetesClient client, List<Action> applied) {
        String[] last = {null};
        boolean healthy = until(() -> {
            for (Action a : applied) {
                Optional<Map<String, Object>> body = new Target(client, a.apiVersion(), a.object()).get();
                if (body.isEmpty()) {
                    last[0] = a.object() + " is missing";
                    return false;
                }
                var assessment = HealthAssessor.assess(body.get());
                if (assessment.health() != Health.Healthy) {
                    last[0] = a.object() + " is " + assessment.health() + (assessment.message().isEmpty() ? "" : ": " + assessment.message());
                    return false;
                }
            }
            return true;
        });
        return healthy ? Optional.empty() : Optional.of(last[0] == null ? "not healthy in time" : last[0]);
    }

    private HookResult awaitFinished(Target live, ObjectRef made) {
        boolean job = made.group().equals("batch") && made.kind().equals("Job");
        boolean pod = made.group().isEmpty() && made.kind().equals("Pod");
        if (!job && !pod) return HookResult.Succeeded;
        HookResult[] outcome = {null};
        until(() -> {
            Optional<Map<String, Object>> body = live.get();
            if (body.isEmpty()) return false;
            outcome[0] = job ? jobOutcome(body.get()) : podOutcome(body.get());
            return outcome[0] != null;
        });
        return outcome[0] == null ? HookResult.TimedOut : outcome[0];
    }

    /** Succeeded once the Job's {@code Complete} condition holds, JobFailed once its {@code Failed} one does, else null. */
    static HookResult jobOutcome(Map<String, Object> job) {
        if (!(job.get("status") instanceof Map<?, ?> status) || !(status.get("conditions") instanceof List<?> conditions)) return null;
        for (Object c : conditions) {
            if (c instanceof Map<?, ?> cond && "True".equals(cond.get("status"))) {
                if ("Complete".equals(cond.get("type"))) return HookResult.Succeeded;
                if ("Failed".equals(cond.get("type"))) return HookResult.JobFailed;
            }
        }
        return null;
    }

    /** Succeeded once the Pod's phase is Succeeded, PodFailed once it is Failed, else null. */
    static HookResult podOutcome(Map<String, Object> pod) {
        Object phase = pod.get("status") instanceof Map<?, ?> status ? status.get("phase") : null;
        if ("Succeeded".equals(phase)) return HookResult.Succeeded;
        if ("Failed".equals(phase)) return HookResult.PodFailed;
        return null;
    }

    /** The hook's object as sent: Git's, with the application's label (not the managed-by label: see the class). */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> labelled(Action action) {
        Map<String, Object> body = new LinkedHashMap<>(action.desired().body());
        Map<String, Object> meta = body.get("metadata") instanceof Map<?, ?> m ? new LinkedHashMap<>((Map<String, Object>) m) : new LinkedHashMap<>();
        Map<String, Object> labels = meta.get("labels") instanceof Map<?, ?> l ? new LinkedHashMap<>((Map<String, Object>) l) : new LinkedHashMap<>();
        labels.put(APP_LABEL, action.app());
        meta.put("labels", labels);
        body.put("metadata", meta);
        return body;
    }

    /** Polls {@code done} until it holds or the timeout passes; false on timeout or interruption. */
    private boolean until(Supplier<Boolean> done) {
        long end = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (done.get()) return true;
            if (System.nanoTime() - end >= 0) return false;
            try {
                Thread.sleep(poll.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }
}
