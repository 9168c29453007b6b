package dev.windlass.dashboard;

import dev.windlass.policy.state.ClusterState;
import dev.windlass.policy.state.ClusterStep;
import dev.windlass.policy.state.Health;
import dev.windlass.policy.state.Reachability;
import dev.windlass.policy.state.RemediationRecord;
import dev.windlass.policy.state.RolloutState;
import dev.windlass.policy.state.Sync;

/**
 * A state as a person sees it: an icon, a word, and a CSS class for its colour. The word is always shown, so colour is
 * never the only signal; the icon is hidden from screen readers. Each takes the state's own type, so a state added to
 * the model is a compile error here until it has its badge.
 */
public record Badge(String icon, String text, String tone) {

    public static Badge sync(Sync sync) {
        if (sync == null) return new Badge("?", "Unknown", "unknown");
        return switch (sync) {
            case Synced -> new Badge("✓", "Synced", "ok");
            case OutOfSync -> new Badge("↻", "OutOfSync", "warn");
            case Unknown -> new Badge("?", "Unknown", "unknown");
        };
    }

    public static Badge health(Health health) {
        if (health == null) return new Badge("?", "Unknown", "unknown");
        return switch (health) {
            case Healthy -> new Badge("♥", "Healthy", "ok");
            case Progressing -> new Badge("◔", "Progressing", "busy");
            case Degraded -> new Badge("✖", "Degraded", "bad");
            case Missing -> new Badge("∅", "Missing", "bad");
            case Suspended -> new Badge("‖", "Suspended", "held");
            case Unknown -> new Badge("?", "Unknown", "unknown");
        };
    }

    public static Badge reachability(Reachability reachability, ClusterState health) {
        if (reachability == Reachability.Reachable && (health == null || health == ClusterState.Healthy)) return new Badge("✓", "Reachable", "ok");
        if (reachability == Reachability.Reachable) return new Badge("!", health.name(), "warn");
        return new Badge("✖", reachability == null ? "Unknown" : reachability.name(), "bad");
    }

    public static Badge held(boolean suspended) {
        return suspended ? new Badge("‖", "Suspended", "held") : new Badge("⊘", "Held", "held");
    }

    public static Badge invalid() { return new Badge("⚠", "Invalid", "bad"); }

    public static Badge remediation(RemediationRecord.State state) {
        return switch (state) {
            case Healthy -> new Badge("♥", "Healthy", "ok");
            case Pending -> new Badge("◔", "Pending", "busy");
            case Marked -> new Badge("⚑", "Marked", "warn");
            case Remediating -> new Badge("⚑", "Remediating", "warn");
            case Unhealthy -> new Badge("✖", "Unhealthy", "bad");
            case GaveUp -> new Badge("✖", "GaveUp", "bad");
            case Missing -> new Badge("✖", "Missing", "bad");
        };
    }

    public static Badge step(ClusterStep.State state, boolean soaking, boolean paused) {
        if (paused) return new Badge("‖", "Paused", "held");
        return switch (state) {
            case Pending -> new Badge("○", "Pending", "unknown");
            case Progressing -> soaking ? new Badge("◑", "Soaking", "busy") : new Badge("◔", "Started", "busy");
            case Succeeded -> new Badge("✓", "Succeeded", "ok");
            case Failed -> new Badge("✖", "Failed", "bad");
            case TimedOut -> new Badge("✖", "Timed out", "bad");
            case Skipped -> new Badge("↷", "Skipped", "unknown");
            case RolledBack -> new Badge("↶", "Rolled back", "warn");
        };
    }

    public static Badge rollout(RolloutState.Result result) {
        return switch (result) {
            case Progressing -> new Badge("◔", "Progressing", "busy");
            case Paused -> new Badge("‖", "Paused", "held");
            case Succeeded -> new Badge("✓", "Succeeded", "ok");
            case Failed -> new Badge("✖", "Failed", "bad");
            case RolledBack -> new Badge("↶", "Rolled back", "warn");
            case Superseded -> new Badge("•", "Superseded", "unknown");
        };
    }
}
