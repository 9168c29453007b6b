package dev.windlass.sandbox.sim;

import io.fabric8.kubernetes.api.model.HasMetadata;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/**
 * Where one object stands, as its controller would see it at one tick: the generation it works on, when the
 * simulator first saw that generation ({@code since}), when it is due to be ready, and the node counts of its
 * cluster. Every timestamp a controller writes is derived from these, never from "now", so a status computed twice
 * is equal and the simulator writes only when something changed.
 */
record Progress(long generation, Instant since, Instant due, Stage stage, int nodes, int readyNodes) {

    enum Stage {
        /** Before the ready delay has passed. */
        ROLLING_OUT,
        /** The delay has passed. */
        READY,
        /** The delay has passed, but a never-ready fault holds the object back. */
        STUCK
    }

    boolean ready() {
        return stage == Stage.READY;
    }

    /** When the current stage began: first sight while rolling out, the end of the delay afterwards. */
    String changedAt() {
        return stage == Stage.ROLLING_OUT ? time(since) : time(due);
    }

    String sinceText() {
        return time(since);
    }

    String dueText() {
        return time(due);
    }

    /** A name like the one a controller gives the ReplicaSet or revision of this generation: stable, short. */
    String revisionOf(HasMetadata object) {
        int hash = (object.getMetadata().getUid() + "/" + generation).hashCode();
        return object.getMetadata().getName() + "-" + Integer.toHexString(hash & 0x7fffffff);
    }

    /** RFC 3339 to the second, as the API server writes times. */
    static String time(Instant instant) {
        return DateTimeFormatter.ISO_INSTANT.format(instant.truncatedTo(ChronoUnit.SECONDS));
    }
}
