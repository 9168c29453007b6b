package dev.windlass.git;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A commit of a branch's history as {@link Mirror#log} lists it.
 *
 * @param trailers the trailers of its message as Git parses them (JGit's footer lines: the last paragraph's
 *                 {@code Key: value} lines), by key as written, each key's values in order; what they mean and whether
 *                 they are well formed is the reader's to decide
 */
public record LoggedCommit(String id, Instant time, String subject, Map<String, List<String>> trailers) {
    public LoggedCommit {
        trailers = Map.copyOf(trailers);
    }

    /** The values of one trailer, in order; empty when the commit has none. */
    public List<String> trailer(String key) {
        return trailers.getOrDefault(key, List.of());
    }
}
