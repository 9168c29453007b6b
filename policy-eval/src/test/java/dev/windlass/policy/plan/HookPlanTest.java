package dev.windlass.policy.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.RepoFiles;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Hook;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.observe.LiveObject;
import dev.windlass.policy.parse.RepoParser;
import dev.windlass.policy.state.EngineState;
import dev.windlass.policy.state.InventoryEntry;
import dev.windlass.policy.state.Sync;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Resource hooks as the planner orders them and as {@link HookGate} gates them: where each phase runs, by weight, which
 * syncs run install or upgrade hooks, that an idle pass runs none, and that a failing PreSync hook holds the
 * application's objects and runs its SyncFail hook.
 */
class HookPlanTest {
    static final Instant NOW = Instant.parse("2026-11-28T10:00:00Z");
    static final ObjectRef CONFIG = new ObjectRef("", "ConfigMap", "web", "web-config");

    static DesiredState repo(String mode) {
        return RepoParser.parse(RepoFiles.inline(
                "clusters/a.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Cluster\nmetadata: {name: a}\nspec:\n  connection: {sandbox: {nodes: 1}}\n",
                "apps/web/app.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: web}\nspec:\n  namespace: web\n  placement: {clusterNames: [a]}\n",
                "apps/web/manifests/config.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web-config}\ndata: {MODE: \"" + mode + "\"}\n",
                "apps/web/manifests/deploy.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, annotations: {argocd.argoproj.io/sync-wave: \"1\"}}\n"
                        + "spec: {selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}, spec: {containers: [{name: w, image: nginx}]}}}\n",
                "apps/web/manifests/hooks.yaml", job("generateName: migrate-", "argocd.argoproj.io/hook: PreSync", "argocd.argoproj.io/sync-wave: \"-1\"")
                        + "---\n" + job("name: check", "argocd.argoproj.io/hook: PreSync", "argocd.argoproj.io/sync-wave: \"-5\"")
                        + "---\n" + job("name: smoke", "argocd.argoproj.io/hook: PostSync", "argocd.argoproj.io/hook-delete-policy: HookSucceeded")
                        + "---\n" + job("name: page", "argocd.argoproj.io/hook: SyncFail", "argocd.argoproj.io/sync-wave: \"0\"")
                        + "---\n" + job("name: ignored", "argocd.argoproj.io/hook: Skip", "argocd.argoproj.io/sync-wave: \"0\"")
                        + "---\n" + job("name: seed", "helm.sh/hook: pre-install", "helm.sh/hook-weight: \"7\"")
                        + "---\n" + job("name: schema", "helm.sh/hook: \"pre-install,pre-upgrade\"", "helm.sh/hook-weight: \"-3\"")
                        + "---\n" + job("name: notify", "helm.sh/hook: post-upgrade", "helm.sh/hook-weight: \"0\"")));
    }

    private static String job(String name, String hook, String more) {
        return "apiVersion: batch/v1\nkind: Job\nmetadata:\n  " + name + "\n  annotations:\n    " + hook + "\n    " + more + "\n"
                + "spec: {template: {spec: {restartPolicy: Never, containers: [{name: m, image: alpine}]}}}\n";
    }

    FakeFleet fleet;
    EngineState state = EngineState.EMPTY;
    final Set<String> failingHooks = new HashSet<>();
    final List<String> ran = new ArrayList<>();
    List<Event> events = List.of();

    /** Plans, then applies as the applier does: each action asked of {@link HookGate}; hooks fail when named in {@link #failingHooks}. */
    private Plan planAndApply(DesiredState desired) {
        Plan plan = Planner.plan(desired, fleet.observe(), state, NOW);
        List<ActionResult> results = new ArrayList<>();
        Set<String> hooked = HookGate.hooked(plan.actions());
        Set<String> failed = new HashSet<>();
        for (Action a : plan.actions()) {
            ActionResult r = switch (HookGate.verdict(a, hooked.contains(a.app()), failed.contains(a.app()))) {
                case NoFailure -> ActionResult.ofHook(a, HookResult.NoFailure, "");
                case HeldByFailure -> ActionResult.ofHook(a, HookResult.HeldByFailure, "");
                case Run -> {
                    if (HookGate.phase(a) != null) {
                        ran.add(a.object().name() + "@" + HookGate.phase(a));
                        yield failingHooks.contains(a.object().name()) ? ActionResult.ofHook(a, HookResult.JobFailed, "Job " + a.object().name() + " failed")
                                : ActionResult.ofHook(a, HookResult.Succeeded, "");
                    }
                    yield fleet.apply(new Plan("", List.of(new Stage("apply", "", List.of(a))), List.of(), List.of(), List.of(), "", Map.of(), false))
                            .results().get(0);
                }
            };
            if (hooked.contains(a.app()) && HookGate.failsSync(r)) failed.add(a.app());
            results.add(r);
        }
        var after = Transition.after(state, desired, fleet.observe(), plan, new ApplyResult(results), NOW);
        state = after.state();
        events = after.events();
        return plan;
    }

    private static List<String> describe(Plan plan) {
        return plan.actions().stream().map(a -> a.operation() + " " + a.object().kind() + " " + a.object().name()
                + (a.reason() instanceof ActionReason.HookRun h ? " [" + h.phase() + " " + h.weight() + (h.install() ? " install" : " upgrade") + "]" : "")).toList();
    }

    @Test void aFirstSyncRunsPreSyncHooksByWeightThenTheObjectsThenPostSyncThenSyncFailLast() {
        DesiredState v1 = repo("1");
        fleet = new FakeFleet(v1.clusters().keySet());
        Plan plan = Planner.plan(v1, fleet.observe(), state, NOW);
        assertEquals(List.of(
                "Create Namespace web",
                "Create Job check [PreSync -5 install]",
                "Create Job schema [PreSync -3 install]",
                "Create Job migrate- [PreSync -1 install]",
                "Create Job seed [PreSync 7 install]",
                "Create ConfigMap web-config",
                "Create Deployment web",
                "Create Job smoke [PostSync 0 install]",
                "Create Job page [SyncFail 0 install]"), describe(plan));
        assertEquals("pre-install hook, weight 7: runs before the application's objects; they wait for it to succeed",
                plan.actions().get(4).reason().text());
        String json = dev.windlass.policy.render.PlanDocument.json(plan).replaceAll("\\s+", "");
        assertTrue(json.contains("\"name\":\"seed\",\"reason\":\"pre-installhook,weight7:runsbeforetheapplication'sobjects;theywaitforittosucceed\","
                + "\"hook\":{\"phase\":\"PreSync\",\"weight\":7,\"sync\":\"Install\"}"), json);
    }

    @Test void anIdlePassRunsNoHookAndALaterSyncRunsUpgradeHooksNotInstallOnes() {
        DesiredState v1 = repo("1");
        fleet = new FakeFleet(v1.clusters().keySet());
        planAndApply(v1);
        assertEquals(List.of("check@PreSync", "schema@PreSync", "migrate-@PreSync", "seed@PreSync", "smoke@PostSync"), ran);
        assertTrue(fleet.objects.get("a").keySet().stream().noneMatch(r -> r.kind().equals("Job")), "hooks were run, not applied as objects");
        var target = state.apps().get("web").targets().get(0);
        assertEquals(Sync.Synced, target.sync());
        assertEquals(List.of("ConfigMap web/web-config", "Deployment web/web"),
                target.inventory().stream().map(InventoryEntry::ref).map(ObjectRef::toString).toList(), "hooks are not in the inventory");
        assertTrue(events.contains(new Event.HookRan("web", "a", new ObjectRef("batch", "Job", "web", "seed"), Hook.Phase.PreSync, HookResult.Succeeded, "")),
                events.toString());

        ran.clear();
        assertEquals(List.of(), describe(planAndApply(v1)), "an idle pass runs no hook");
        assertEquals(List.of(), ran);

        assertEquals(List.of(
                "Create Job check [PreSync -5 upgrade]",
                "Create Job schema [PreSync -3 upgrade]",
                "Create Job migrate- [PreSync -1 upgrade]",
                "Update ConfigMap web-config",
                "Create Job notify [PostSync 0 upgrade]",
                "Create Job smoke [PostSync 0 upgrade]",
                "Create Job page [SyncFail 0 upgrade]"), describe(planAndApply(repo("2"))));
    }

    @Test void aFailingPreSyncHookHoldsTheApplicationsObjectsAndRunsSyncFail() {
        DesiredState v1 = repo("1");
        fleet = new FakeFleet(v1.clusters().keySet());
        failingHooks.add("migrate-");
        planAndApply(v1);
        assertEquals(List.of("check@PreSync", "schema@PreSync", "migrate-@PreSync", "page@SyncFail"), ran,
                "nothing after the failed hook ran but the SyncFail hook");
        assertEquals(Set.of(), fleet.objects.get("a").keySet(), "the application's objects were held");
        var target = state.apps().get("web").targets().get(0);
        assertEquals(Sync.OutOfSync, target.sync());
        assertEquals(List.of(), target.inventory());
        assertTrue(events.contains(new Event.HookRan("web", "a", new ObjectRef("batch", "Job", "web", "migrate-"), Hook.Phase.PreSync,
                HookResult.JobFailed, "Job migrate- failed")), events.toString());
        assertTrue(events.contains(new Event.HookRan("web", "a", new ObjectRef("batch", "Job", "web", "seed"), Hook.Phase.PreSync,
                HookResult.HeldByFailure, "")), events.toString());
        assertEquals(Event.Type.Error, events.stream().filter(e -> e instanceof Event.HookRan h && h.result() == HookResult.JobFailed).findFirst().orElseThrow().type());
        assertTrue(target.message().contains("PreSync hook Job.batch web/migrate- failed: Job migrate- failed"), target.message());

        failingHooks.clear();
        ran.clear();
        planAndApply(v1);
        assertEquals(List.of("check@PreSync", "schema@PreSync", "migrate-@PreSync", "seed@PreSync", "smoke@PostSync"), ran,
                "still an install: nothing of the application was on the cluster");
        assertEquals(Sync.Synced, state.apps().get("web").targets().get(0).sync());
    }

    @Test void anObjectRecordedBeforeItWasAHookIsLetGoOfNotPruned() {
        DesiredState v1 = repo("1");
        fleet = new FakeFleet(v1.clusters().keySet());
        planAndApply(v1);
        ObjectRef seed = new ObjectRef("batch", "Job", "web", "seed");
        var target = state.apps().get("web").targets().get(0);
        var recorded = new ArrayList<>(target.inventory());
        var job = v1.apps().get("web").manifests().stream().filter(m -> m.ref().equals(seed)).findFirst().orElseThrow();
        recorded.add(InventoryEntry.of(job));  // as an engine that applied hooks as plain objects recorded it
        var before = new java.util.TreeMap<>(state.apps());
        before.put("web", state.apps().get("web").withTargets(List.of(new dev.windlass.policy.state.TargetStatus(target.cluster(), target.revision(),
                target.sync(), target.health(), target.message(), target.drift(), recorded, target.unhealthySince(), target.observedState(),
                target.injectedState(), target.variant(), target.rendered(), target.retry()))));
        state = new EngineState(state.source(), before, state.clusters(), state.policyFiles());
        fleet.objects.get("a").put(seed, new LiveObject(seed, job.body(), dev.windlass.policy.state.Health.Healthy, ""));

        Plan plan = planAndApply(v1);
        assertEquals(List.of(), describe(plan), "not deleted");
        assertEquals(List.of(seed), plan.apps().get(0).targets().get(0).released());
        assertTrue(state.apps().get("web").targets().get(0).inventory().stream().noneMatch(e -> e.ref().equals(seed)), "no longer recorded");
    }

    @Test void anAppWithoutHooksIsNotGated() {
        Action plain = new Action("web", "a", CONFIG, "v1", Operation.Create, new ActionReason.NotOnCluster(), List.of(), null,
                dev.windlass.policy.model.Application.ApplyStrategy.ClientSide, false);
        assertEquals(Set.of(), HookGate.hooked(List.of(plain)));
        assertEquals(HookGate.Verdict.Run, HookGate.verdict(plain, false, true), "one object failing does not hold the others");
    }

    @Test void aHelmHookThatMixesPhasesAndOccasionsItCannotRunAsOneIsAnError() {
        DesiredState s = RepoParser.parse(RepoFiles.inline(
                "clusters/a.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Cluster\nmetadata: {name: a}\nspec:\n  connection: {sandbox: {nodes: 1}}\n",
                "apps/web/app.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: web}\nspec:\n  namespace: web\n  placement: {clusterNames: [a]}\n",
                "apps/web/manifests/hooks.yaml", job("name: odd", "helm.sh/hook: \"pre-install,post-upgrade\"", "helm.sh/hook-weight: \"0\"")
                        + "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {generateName: cfg-}\n"));
        List<String> errors = s.diagnostics().stream().filter(dev.windlass.policy.model.Diagnostic::isError).map(Object::toString).toList();
        assertTrue(errors.stream().anyMatch(e -> e.contains("apps/web/manifests/hooks.yaml:1:1: annotation helm.sh/hook on Job odd is 'pre-install,post-upgrade',"
                + " which Windlass cannot run as one hook (it runs each phase named on each occasion named, and pre-upgrade is not named); split it into two objects")), errors.toString());
        assertTrue(errors.stream().anyMatch(e -> e.contains("object has no metadata.name; every Kubernetes object needs apiVersion, kind and metadata.name"
                + " (generateName is allowed only on resource hooks: other objects need a stable name to be tracked)")), errors.toString());
    }

}
