package dev.windlass.applier.kube;

/**
 * The labels and annotations Windlass puts on every object it applies. Observation finds managed objects by
 * {@link #MANAGED_BY}, and the client-side three-way merge reads back {@link #LAST_APPLIED}.
 */
public final class OwnershipMarks {

    public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    public static final String MANAGED_BY_VALUE = "windlass";
    public static final String APP = "windlass.dev/app";

    /** Compact JSON of the object as last applied from Git, without this annotation itself. */
    public static final String LAST_APPLIED = "windlass.dev/last-applied";

    /** The manifest hash of what was applied last, so a reader can tell which Git content is live. */
    public static final String APPLIED_HASH = "windlass.dev/applied-hash";

    /** The label selector for one LIST that returns exactly the managed objects of a kind. */
    public static final String SELECTOR = MANAGED_BY + "=" + MANAGED_BY_VALUE;

    private OwnershipMarks() {}
}
