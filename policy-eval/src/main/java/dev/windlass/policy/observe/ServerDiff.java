package dev.windlass.policy.observe;

import java.util.List;

/**
 * The API server's own answer to "what would applying Git's object change here?": a server-side apply dry run of the
 * object whose manifest hash is {@code desiredHash}, compared with the live object. Asked only on clusters with
 * server-side apply, and only when Windlass's own comparison ({@code FieldDiff}) found a difference, so that what the
 * server stores differently (defaults, dropped zero values, pruned unknown fields, normalised quantities) is never
 * taken for drift.
 *
 * @param fields the fields the apply would change, {@code spec.replicas}; empty: nothing, the object is as Git says
 */
public record ServerDiff(String desiredHash, List<String> fields) {
    public ServerDiff {
        fields = List.copyOf(fields);
    }
}
