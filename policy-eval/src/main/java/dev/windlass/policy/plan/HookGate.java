package dev.windlass.policy.plan;

import dev.windlass.policy.model.Hook;
import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;

/**
 * Whether an action of an application with resource hooks runs, decided from what happened before it in the same
 * sync on that cluster; the applier asks before each action and executes, never decides. Once a hook or an object of
 * such an application fails, nothing after it is written for that application, and its SyncFail hooks run; a sync
 * with no failure skips the SyncFail hooks. Applications without hooks are not gated: one object failing does not
 * hold the others, as before hooks existed.
 */
public final class HookGate {

    /** What to do with an action. */
    public enum Verdict {
        /** Write it (a hook: run it). */
        Run,
        /** Do not write it: {@link HookResult#HeldByFailure}. */
        HeldByFailure,
        /** A SyncFail hook and nothing failed: {@link HookResult#NoFailure}. */
        NoFailure
    }

    private HookGate() {}

    /** The applications among {@code actions} that have a hook action: only these are gated. */
    public static Set<String> hooked(Collection<Action> actions) {
        Set<String> out = new TreeSet<>();
        for (Action a : actions) if (phase(a) != null) out.add(a.app());
        return out;
    }

    /**
     * @param hooked       whether the action's application has hooks in this sync ({@link #hooked})
     * @param failedBefore whether an action of the same application failed before it in this sync on this cluster
     */
    public static Verdict verdict(Action action, boolean hooked, boolean failedBefore) {
        if (!hooked) return Verdict.Run;
        if (phase(action) == Hook.Phase.SyncFail) return failedBefore ? Verdict.Run : Verdict.NoFailure;
        return failedBefore ? Verdict.HeldByFailure : Verdict.Run;
    }

    /** Whether {@code result} fails its application's sync, so that what follows is held and SyncFail hooks run. */
    public static boolean failsSync(ActionResult result) {
        return !result.succeeded() && phase(result.action()) != Hook.Phase.SyncFail;
    }

    /** The hook phase an action runs in, or null for an action that is no hook. */
    public static Hook.Phase phase(Action a) {
        return a.reason() instanceof ActionReason.HookRun run ? run.phase() : null;
    }
}
