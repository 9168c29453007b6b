package dev.windlass.engine.lease;

import dev.windlass.policy.shard.ShardSpread;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which replicas are up, for spreading the shards: each ready replica keeps a Lease of its own,
 * {@code <name>-replica-<hash of its identity>} labelled {@value #REPLICA_OF}{@code : <name>}, renewed every third of a
 * lease duration and annotated with the shards it prefers; each lists the others'. A replica counts as up while its
 * Lease keeps changing (it has not stood unchanged for a lease duration, on this replica's monotonic clock, as with shard
 * Leases), and as settled once it has been up for the settle time without a break. Leases left behind by replicas gone
 * for ten lease durations are deleted by whoever sees them. A replica that stops deletes its own.
 */
final class ReplicaPresence {
    private static final Logger log = LoggerFactory.getLogger(ReplicaPresence.class);

    /** The label that names the fleet's Lease name a replica's presence belongs to. */
    static final String REPLICA_OF = "windlass.dev/replica-of";
    /** The annotation with the shards a replica prefers, like {@code 0,3}. */
    static final String PREFERRED = "windlass.dev/preferred-shards";

    /** One replica's presence as this replica saw it. */
    private record Seen(String identity, String version, long changed, long upSince, SortedSet<Integer> preferred) {}

    private final KubernetesClient client;
    private final LeaseSettings settings;
    private final SortedSet<Integer> preferred;
    private final LongSupplier nanos;
    private final Map<String, Seen> seen = new HashMap<>();  // guarded by this, by Lease name
    private boolean sawItself;                               // guarded by this
    private long sawItselfAt;                                // guarded by this: when it first did (nanos)

    ReplicaPresence(KubernetesClient client, LeaseSettings settings, SortedSet<Integer> preferred, LongSupplier nanos) {
        this.client = client;
        this.settings = settings;
        this.preferred = new TreeSet<>(preferred);
        this.nanos = nanos;
    }

    /** This replica's presence Lease's name. */
    static String leaseName(String name, String identity) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(identity.getBytes(StandardCharsets.UTF_8));
            return name + "-replica-" + HexFormat.of().formatHex(d).substring(0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    /**
     * How long until the next turn: a retry period until this replica has read its own presence back (so that it takes
     * shards soon after it starts), then a third of a lease duration.
     */
    synchronized Duration period() { return sawItself ? settings.leaseDuration().dividedBy(3) : settings.retryPeriod(); }

    /** Renews this replica's presence (when {@code ready}) and reads every replica's; a failure is logged and waits for the next turn. */
    void tick(boolean ready) {
        try {
            if (ready) renew();
            observe(client.leases().inNamespace(settings.namespace()).withLabel(REPLICA_OF, settings.name()).list().getItems());
        } catch (KubernetesClientException e) {
            log.warn("{}: reading or renewing the replicas' presence failed: {}", settings.describe(), e.getMessage());
        }
    }

    private void renew() {
        String name = leaseName(settings.name(), settings.identity());
        ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
        Lease current = client.leases().inNamespace(settings.namespace()).withName(name).get();
        if (current == null) {
            client.leases().inNamespace(settings.namespace()).resource(new LeaseBuilder()
                    .withNewMetadata().withName(name).withNamespace(settings.namespace())
                    .addToLabels("app.kubernetes.io/name", "windlass").addToLabels(REPLICA_OF, settings.name())
                    .addToAnnotations(PREFERRED, preferred.stream().map(String::valueOf).collect(Collectors.joining(",")))
                    .endMetadata()
                    .withNewSpec().withHolderIdentity(settings.identity()).withLeaseDurationSeconds((int) settings.leaseDuration().toSeconds())
                    .withAcquireTime(now).withRenewTime(now).endSpec().build()).create();
            log.info("{}: {} is up and ready; its presence is Lease {}/{}", settings.describe(), settings.identity(), settings.namespace(), name);
            return;
        }
        current.getSpec().setRenewTime(now);
        current.getSpec().setHolderIdentity(settings.identity());
        client.leases().inNamespace(settings.namespace()).resource(current).update();
    }

    private synchronized void observe(java.util.List<Lease> leases) {
        long now = nanos.getAsLong();
        Map<String, Seen> next = new HashMap<>();
        for (Lease l : leases) {
            String name = l.getMetadata().getName();
            String identity = l.getSpec() == null ? null : l.getSpec().getHolderIdentity();
            if (identity == null || identity.isEmpty()) continue;
            String version = l.getMetadata().getResourceVersion();
            Seen before = seen.get(name);
            Seen s;
            if (before == null || !before.version().equals(version)) {
                boolean wasUp = before != null && up(before, now);
                s = new Seen(identity, version, now, wasUp ? before.upSince() : now, preferred(l));
            } else {
                s = before;
            }
            if (!identity.equals(settings.identity()) && Duration.ofNanos(now - s.changed()).compareTo(settings.leaseDuration().multipliedBy(10)) > 0) {
                forget(name, identity);
                continue;
            }
            next.put(name, s);
        }
        seen.clear();
        seen.putAll(next);
        if (!sawItself && next.values().stream().anyMatch(x -> x.identity().equals(settings.identity()))) {
            sawItself = true;
            sawItselfAt = now;
        }
    }

    private void forget(String name, String identity) {
        try {
            client.leases().inNamespace(settings.namespace()).withName(name).delete();
            log.info("{}: deleted the presence of {}, gone for ten lease durations", settings.describe(), identity);
        } catch (KubernetesClientException e) {
            log.debug("deleting the presence Lease {} failed: {}", name, e.getMessage());
        }
    }

    private boolean up(Seen s, long now) {
        return Duration.ofNanos(now - s.changed()).compareTo(settings.leaseDuration()) < 0;
    }

    private static SortedSet<Integer> preferred(Lease l) {
        SortedSet<Integer> out = new TreeSet<>();
        String text = l.getMetadata().getAnnotations() == null ? null : l.getMetadata().getAnnotations().get(PREFERRED);
        if (text == null || text.isBlank()) return out;
        for (String part : text.split(",")) {
            try {
                out.add(Integer.parseInt(part.strip()));
            } catch (NumberFormatException e) {
                // Another version's annotation, or a hand edit: a hint only, so nothing is preferred.
            }
        }
        return out;
    }

    /**
     * Whether this replica has read its own presence back: it is ready, and every replica that was ready before it wrote
     * its presence is in what it read, so it knows whom the shards spread over.
     */
    synchronized boolean sawItself() { return sawItself; }

    /** How long since this replica first read its own presence back; zero before it has. */
    synchronized Duration upFor() { return sawItself ? Duration.ofNanos(nanos.getAsLong() - sawItselfAt) : Duration.ZERO; }

    /** Every replica up, this one included, settled once up for {@code settle}. */
    synchronized SortedMap<String, ShardSpread.Replica> up(Duration settle) {
        long now = nanos.getAsLong();
        SortedMap<String, ShardSpread.Replica> out = new TreeMap<>();
        for (Seen s : seen.values()) {
            if (!up(s, now)) continue;
            out.put(s.identity(), new ShardSpread.Replica(Duration.ofNanos(now - s.upSince()).compareTo(settle) >= 0, s.preferred()));
        }
        out.put(settings.identity(), new ShardSpread.Replica(true, preferred));
        return out;
    }

    /** Deletes this replica's presence, so the others stop counting it at once. */
    void leave() {
        try {
            client.leases().inNamespace(settings.namespace()).withName(leaseName(settings.name(), settings.identity())).delete();
        } catch (KubernetesClientException e) {
            log.warn("{}: deleting this replica's presence failed ({}); the others stop counting it a lease duration from now",
                    settings.describe(), e.getMessage());
        }
    }
}
