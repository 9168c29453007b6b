package dev.windlass.policy.model;

/** One application on one cluster: what the planner plans, the applier writes and the status branch records, as a key. */
public record TargetKey(String app, String cluster) {
    public TargetKey {
        if (app == null || cluster == null) throw new IllegalArgumentException("a target needs an application and a cluster");
    }

    @Override public String toString() { return app + "@" + cluster; }
}
