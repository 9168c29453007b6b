package dev.windlass.policy.state;

/** Health of an object or an application on a cluster, in the words users know from other GitOps tools. */
public enum Health {
    Healthy, Progressing, Degraded, Suspended, Missing, Unknown;

    /** The worse of two: Degraded beats Missing beats Unknown beats Progressing beats Suspended beats Healthy. */
    public Health worse(Health other) {
        return rank(other) > rank(this) ? other : this;
    }

    private static int rank(Health h) {
        return switch (h) {
            case Healthy -> 0;
            case Suspended -> 1;
            case Progressing -> 2;
            case Unknown -> 3;
            case Missing -> 4;
            case Degraded -> 5;
        };
    }
}
