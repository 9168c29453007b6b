package dev.windlass.git;

import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The refs a fetch moved, keyed by full ref name. Callers ask about the one branch they watch, so a new commit on the
 * status branch (which the engine writes itself) never looks like a config change.
 */
public record FetchOutcome(SortedMap<String, RefChange> changes) {

    static final Pattern PULL_HEAD = Pattern.compile("refs/pull/(\\d{1,9})/head");

    public FetchOutcome {
        changes = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(changes));
    }

    public static FetchOutcome none() {
        return new FetchOutcome(new TreeMap<>());
    }

    public boolean isEmpty() { return changes.isEmpty(); }

    /** Whether {@code branch} ({@code main} or {@code refs/heads/main}) moved, appeared or vanished. */
    public boolean changed(String branch) {
        return change(branch).isPresent();
    }

    public Optional<RefChange> change(String branch) {
        return Optional.ofNullable(changes.get(Mirror.branchRef(branch)));
    }

    /** Pull request heads that moved, keyed by pull request number. */
    public SortedMap<Integer, RefChange> pullRequests() {
        SortedMap<Integer, RefChange> pulls = new TreeMap<>();
        for (Map.Entry<String, RefChange> e : changes.entrySet()) {
            Matcher m = PULL_HEAD.matcher(e.getKey());
            if (m.matches()) pulls.put(Integer.parseInt(m.group(1)), e.getValue());
        }
        return pulls;
    }
}
