package dev.windlass.dashboard;

/**
 * A state as a person sees it: an icon, a word, and a CSS class for its colour. The word is always shown, so colour is
 * never the only signal; the icon is hidden from screen readers.
 */
public record Badge(String icon, String text, String tone) {

    public static Badge sync(String sync) {
        if (sync == null) return new Badge("?", "Unknown", "unknown");
        return switch (sync) {
            case "Synced" -> new Badge("✓", "Synced", "ok");
            case "OutOfSync" -> new Badge("↻", "OutOfSync", "warn");
            default -> new Badge("?", sync, "unknown");
        };
    }

    public static Badge health(String health) {
        if (health == null) return new Badge("?", "Unknown", "unknown");
        return switch (health) {
            case "Healthy" -> new Badge("♥", "Healthy", "ok");
            case "Progressing" -> new Badge("◔", "Progressing", "busy");
            case "Degraded" -> new Badge("✖", "Degraded", "bad");
            case "Missing" -> new Badge("∅", "Missing", "bad");
            case "Suspended" -> new Badge("‖", "Suspended", "held");
            default -> new Badge("?", health, "unknown");
        };
    }

    public static Badge reachability(String reachability, String health) {
        if ("Reachable".equals(reachability) && (health == null || "Healthy".equals(health))) return new Badge("✓", "Reachable", "ok");
        if ("Reachable".equals(reachability)) return new Badge("!", health, "warn");
        return new Badge("✖", reachability == null ? "Unknown" : reachability, "bad");
    }

    public static Badge held(boolean suspended) {
        return suspended ? new Badge("‖", "Suspended", "held") : new Badge("⊘", "Held", "held");
    }

    public static Badge invalid() { return new Badge("⚠", "Invalid", "bad"); }

    public static Badge remediation(String state) {
        return switch (state) {
            case "Healthy" -> new Badge("♥", state, "ok");
            case "Pending" -> new Badge("◔", state, "busy");
            case "Marked", "Remediating" -> new Badge("⚑", state, "warn");
            case "Unhealthy", "GaveUp", "Missing" -> new Badge("✖", state, "bad");
            default -> new Badge("?", state, "unknown");
        };
    }

    public static Badge step(String state, boolean soaking, boolean paused) {
        if (paused) return new Badge("‖", "Paused", "held");
        return switch (state) {
            case "Pending" -> new Badge("○", "Pending", "unknown");
            case "Progressing" -> soaking ? new Badge("◑", "Soaking", "busy") : new Badge("◔", "Started", "busy");
            case "Succeeded" -> new Badge("✓", "Succeeded", "ok");
            case "Failed" -> new Badge("✖", "Failed", "bad");
            case "TimedOut" -> new Badge("✖", "Timed out", "bad");
            case "Skipped" -> new Badge("↷", "Skipped", "unknown");
            case "RolledBack" -> new Badge("↶", "Rolled back", "warn");
            default -> new Badge("?", state, "unknown");
        };
    }

    public static Badge rollout(String result) {
        return switch (result) {
            case "Progressing" -> new Badge("◔", "Progressing", "busy");
            case "Paused" -> new Badge("‖", "Paused", "held");
            case "Succeeded" -> new Badge("✓", "Succeeded", "ok");
            case "Failed" -> new Badge("✖", "Failed", "bad");
            case "RolledBack" -> new Badge("↶", "Rolled back", "warn");
            default -> new Badge("•", result, "unknown");
        };
    }
}
