package dev.windlass.engine.status;

import dev.windlass.git.LoggedCommit;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Who wrote a status commit: the replica's identity (the one it stands for leases with) and the shards its pass held,
 * as the trailers {@code Windlass-Replica} and {@code Windlass-Shards} (shard numbers ascending, {@code 0,2}; or
 * {@value #UNSHARDED} for an engine that acts for the whole fleet). Read back strictly: a commit without them (written by
 * an earlier engine), with one twice, or with a value this engine would not write, has no known writer, and says
 * {@value #UNKNOWN}; nothing is guessed from it.
 *
 * @param shards the shards the pass held; null: not sharded, the whole fleet
 */
public record CommitWriter(String replica, SortedSet<Integer> shards) {
    public static final String REPLICA_TRAILER = "Windlass-Replica";
    public static final String SHARDS_TRAILER = "Windlass-Shards";
    public static final String UNSHARDED = "unsharded";
    public static final String UNKNOWN = "unknown writer";

    /** A host name, a pod name, with the lease identity's random part: letters, digits, {@code . _ -}; at most 253. */
    private static final Pattern IDENTITY = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,252}");
    private static final Pattern SHARD_LIST = Pattern.compile("(0|[1-9][0-9]{0,3})(,(0|[1-9][0-9]{0,3}))*");

    public CommitWriter {
        if (replica == null || !IDENTITY.matcher(replica).matches()) {
            throw new IllegalArgumentException("a replica's identity is letters, digits, '.', '_' and '-', not " + replica);
        }
        if (shards != null) {
            if (shards.isEmpty()) throw new IllegalArgumentException("a sharded pass holds at least one shard");
            if (shards.first() < 0 || shards.last() > 9999) throw new IllegalArgumentException("no such shard in " + shards);
            shards = Collections.unmodifiableSortedSet(new TreeSet<>(shards));
        }
    }

    /** An engine that is not sharded. */
    public static CommitWriter unsharded(String replica) {
        return new CommitWriter(replica, null);
    }

    /** The two trailer lines, each ending with a newline. */
    public String trailers() {
        return REPLICA_TRAILER + ": " + replica + "\n" + SHARDS_TRAILER + ": " + shardsText() + "\n";
    }

    /** {@code host_1a2b3c4d (shards 0,2)}, {@code host_1a2b3c4d (unsharded)}. */
    public String describe() {
        return replica + (shards == null ? " (" + UNSHARDED + ")" : " (shards " + shardsText() + ")");
    }

    private String shardsText() {
        return shards == null ? UNSHARDED : String.join(",", shards.stream().map(String::valueOf).toList());
    }

    /** The writer a commit's trailers name; empty when they do not name one exactly as this engine writes it. */
    public static Optional<CommitWriter> of(LoggedCommit commit) {
        List<String> replica = commit.trailer(REPLICA_TRAILER);
        List<String> shards = commit.trailer(SHARDS_TRAILER);
        if (replica.size() != 1 || shards.size() != 1 || !IDENTITY.matcher(replica.get(0)).matches()) return Optional.empty();
        String held = shards.get(0);
        if (held.equals(UNSHARDED)) return Optional.of(unsharded(replica.get(0)));
        if (!SHARD_LIST.matcher(held).matches()) return Optional.empty();
        SortedSet<Integer> numbers = new TreeSet<>();
        int last = -1;
        for (String n : held.split(",")) {
            int shard = Integer.parseInt(n);
            if (shard <= last) return Optional.empty();  // written ascending, each once: anything else is not ours
            numbers.add(shard);
            last = shard;
        }
        return Optional.of(new CommitWriter(replica.get(0), numbers));
    }

    /** What a commit's trailers say of its writer, for people: {@link #describe()}, or {@value #UNKNOWN}. */
    public static String describe(LoggedCommit commit) {
        return of(commit).map(CommitWriter::describe).orElse(UNKNOWN);
    }
}
