package dev.windlass.git;

import java.util.Optional;

/** One ref that moved during a fetch; an absent side means the ref was created or pruned. */
public record RefChange(String ref, Optional<String> oldId, Optional<String> newId) {

    public RefChange {
        if (ref == null || ref.isEmpty()) throw new IllegalArgumentException("ref is empty");
        if (oldId.equals(newId)) throw new IllegalArgumentException(ref + " did not change");
    }

    public boolean created() { return oldId.isEmpty(); }

    public boolean deleted() { return newId.isEmpty(); }
}
