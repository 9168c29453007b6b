package dev.windlass.dashboard;

import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.shard.ShardAssignment;
import dev.windlass.policy.shard.ShardSpread;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Who holds which shard, as the replica serving the page reads the Leases now, and which replicas are up: the fleet
 * page's "Shards" section, on a replica started with {@code --shards}.
 *
 * @param rows     one per shard: its holder ("" when free), whether it is this replica, how many clusters it owns
 * @param replicas every replica up, with how many shards it holds and whether it has settled (shards are spread to it)
 * @param summary  one line: this replica, what it holds, how many replicas are up and each one's share
 */
public record ShardPanel(List<Row> rows, List<Replica> replicas, String summary) {

    public record Row(int shard, String holder, boolean mine, boolean free, int clusters) {}

    public record Replica(String identity, int holds, boolean settled, boolean me) {}

    static ShardPanel of(ShardSpread spread, Map<String, Cluster> clusters) {
        Map<Integer, Integer> owned = new TreeMap<>();
        ShardAssignment.of(spread.shards(), clusters).owners().values().forEach(s -> owned.merge(s, 1, Integer::sum));
        List<Row> rows = new ArrayList<>();
        for (int s = 0; s < spread.shards(); s++) {
            String holder = spread.holders().getOrDefault(s, "");
            rows.add(new Row(s, holder, holder.equals(spread.me()), holder.isEmpty(), owned.getOrDefault(s, 0)));
        }
        List<Replica> replicas = new ArrayList<>();
        spread.replicas().forEach((id, r) -> replicas.add(new Replica(id, spread.held(id), r.settled(), id.equals(spread.me()))));
        int up = spread.replicas().size();
        int low = spread.floor(up), high = spread.ceiling(up);
        String share = low == high ? Integer.toString(low) : low + " or " + high;
        String summary = spread.me() + " holds " + spread.held(spread.me()) + " of " + spread.shards() + " shards; " + up + " replica"
                + (up == 1 ? "" : "s") + " up, " + share + " shard" + (high == 1 ? "" : "s") + " each once spread";
        return new ShardPanel(rows, replicas, summary);
    }
}
