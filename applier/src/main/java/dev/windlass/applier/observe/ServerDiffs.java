package dev.windlass.applier.observe;

import dev.windlass.applier.kube.Failures;
import dev.windlass.applier.kube.JsonTree;
import dev.windlass.applier.kube.OwnershipMarks;
import dev.windlass.applier.write.DryRunApply;
import dev.windlass.policy.diff.FieldDiff;
import dev.windlass.policy.diff.IgnoredFields;
import dev.windlass.policy.diff.TreeChanges;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.observe.DesiredObjects;
import dev.windlass.policy.observe.LiveObject;
import dev.windlass.policy.observe.ServerDiff;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One cluster's answers to "is this live object really different from Git?". Windlass's own comparison
 * ({@link FieldDiff}) looks first; only an object it finds different, that Windlass applied from the very content Git
 * has now, is asked of the API server, by a server-side apply dry run compared with the live object
 * ({@link DryRunApply}). What the server stores differently (a default, a zero value it leaves out, a field its schema
 * prunes) is then no drift, and an object is never re-applied forever because of it.
 *
 * <p>An answer holds while the object stays at the same resource version and Git's content stays the same, so a pass
 * with nothing new asks nothing. A dry run that fails leaves the object to Windlass's own comparison.
 */
final class ServerDiffs {
    private static final Logger log = LoggerFactory.getLogger(ServerDiffs.class);

    private record Asked(String resourceVersion, ServerDiff answer) {}

    /** What Windlass's own comparison found of an object at a resource version, against Git's content and ignored fields. */
    private record Compared(String resourceVersion, String desiredHash, java.util.List<dev.windlass.policy.model.IgnoreDifferences> ignored, boolean differs) {}

    private final Map<ObjectRef, Asked> asked = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<ObjectRef, Compared> compared = new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicLong dryRuns = new java.util.concurrent.atomic.AtomicLong();

    /**
     * The objects, each that needed it with the server's answer. Answers for objects no longer observed are forgotten.
     * A cluster that stops answering midway throws, as any other read of the observation does.
     */
    Map<ObjectRef, LiveObject> confirm(String cluster, KubernetesClient client, Map<ObjectRef, LiveObject> objects, DesiredObjects desired) {
        asked.keySet().retainAll(objects.keySet());
        compared.keySet().retainAll(objects.keySet());
        Map<ObjectRef, LiveObject> out = new LinkedHashMap<>(objects);
        for (LiveObject live : objects.values()) {
            DesiredObjects.Wanted wanted = desired.get(cluster, live.ref());
            if (wanted == null || !needsAsking(wanted, live)) continue;
            ServerDiff answer = answer(client, wanted, live);
            if (answer != null) out.put(live.ref(), live.withServerDiff(answer));
        }
        return out;
    }

    /** Dry runs sent so far. */
    long dryRuns() { return dryRuns.get(); }

    /**
     * Only Windlass's own object from this very Git content, that its own comparison finds different. The comparison's
     * verdict holds while the object stays at its resource version and Git's content and ignored fields stay the same.
     */
    private boolean needsAsking(DesiredObjects.Wanted wanted, LiveObject live) {
        Manifest m = wanted.manifest();
        if (m.applyMode() == Manifest.ApplyMode.ONCE) return false;
        if (!m.hash().equals(mark(live, "annotations", OwnershipMarks.APPLIED_HASH))) return false;
        if (!wanted.app().equals(mark(live, "labels", OwnershipMarks.APP))) return false;
        String version = mark(live, null, "resourceVersion");
        Compared before = compared.get(live.ref());
        if (before != null && !version.isEmpty() && before.resourceVersion().equals(version) && before.desiredHash().equals(m.hash())
                && before.ignored().equals(wanted.ignored())) {
            return before.differs();
        }
        boolean differs = !FieldDiff.differences(IgnoredFields.leftOut(m.ref(), m.body(), live.body(), wanted.ignored()), live.body()).isEmpty();
        compared.put(live.ref(), new Compared(version, m.hash(), wanted.ignored(), differs));
        return differs;
    }

    private ServerDiff answer(KubernetesClient client, DesiredObjects.Wanted wanted, LiveObject live) {
        String version = mark(live, null, "resourceVersion");
        Asked before = asked.get(live.ref());
        if (before != null && before.resourceVersion().equals(version) && before.answer().desiredHash().equals(wanted.manifest().hash())) {
            return before.answer();
        }
        Manifest sent = wanted.manifest().sending(
                IgnoredFields.liveValuesKept(wanted.manifest().ref(), wanted.manifest().body(), live.body(), wanted.ignored()));
        Map<String, Object> after;
        try {
            dryRuns.incrementAndGet();
            after = DryRunApply.answer(client, wanted.app(), sent);
        } catch (KubernetesClientException e) {
            if (Failures.classify(e) == Failures.Kind.Unreachable) throw e;
            log.debug("dry run of {} failed; its drift is what Windlass's own comparison finds: {}", live.ref(), Failures.describe(e));
            return null;
        }
        ServerDiff answer = new ServerDiff(wanted.manifest().hash(), TreeChanges.between(live.body(), JsonTree.frozen(after)));
        asked.put(live.ref(), new Asked(version, answer));
        return answer;
    }

    /** A metadata field ({@code under} null), or one of its labels or annotations; "" when absent. */
    private static String mark(LiveObject live, String under, String key) {
        Map<String, Object> meta = JsonTree.childMap(live.body(), "metadata");
        Map<String, Object> in = meta == null ? null : under == null ? meta : JsonTree.childMap(meta, under);
        return in == null ? "" : Objects.toString(in.get(key), "");
    }
}
