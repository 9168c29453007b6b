package dev.windlass.applier.reads;

import static dev.windlass.applier.support.Fixtures.configMap;
import static dev.windlass.applier.support.Fixtures.create;
import static dev.windlass.applier.support.Fixtures.serverSide;
import static dev.windlass.applier.support.Fixtures.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.applier.Applier;
import dev.windlass.applier.support.RealCluster;
import dev.windlass.kubetest.Await;
import dev.windlass.kubetest.RequestCounts;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.observe.ClusterObservation;
import dev.windlass.policy.observe.KindRef;
import dev.windlass.policy.observe.LiveObject;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Outcome;
import dev.windlass.policy.plan.Stage;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The engine's reads from watches, on a real API server: what an observation returns and which requests it cost,
 * counted by the server itself.
 */
class WatchCacheIT {

    private static final KindRef CONFIG_MAPS = new KindRef("v1", "ConfigMap");
    private static final KindRef SECRETS = new KindRef("v1", "Secret");
    private static RealCluster cluster;

    @BeforeAll static void start() { cluster = RealCluster.start(); }

    @AfterAll static void stop() { cluster.close(); }

    @Test void anObservationWithNothingNewListsNothing() {
        String ns = cluster.newNamespace("quiet");
        try (Applier applier = cluster.newApplier()) {
            apply(applier, create(RealCluster.NAME, configMap(ns, "a", "1")), create(RealCluster.NAME, configMap(ns, "b", "1")));
            assertEquals(Map.of("a", "1", "b", "1"), data(observe(applier), ns));   // LISTs, and opens the watches
            assertTrue(applier.clients().awaitCurrent(Duration.ofSeconds(10)));

            RequestCounts before = cluster.counts();
            ClusterObservation quiet = observe(applier);
            RequestCounts during = cluster.countsSince(before);

            assertEquals(Map.of("a", "1", "b", "1"), data(quiet, ns));
            assertTrue(quiet.namespaces().contains(ns), quiet.namespaces().toString());
            assertEquals(dev.windlass.policy.state.Reachability.Reachable, quiet.reachability());
            assertEquals(0, lists(during), during.samples().toString());
        }
    }

    /**
     * What lets an engine skip a pass: a stamp made without a request, equal while the cluster holds the same
     * objects, different once another client changed one, and missing after the engine's own write until a read
     * proves the watch holds it.
     */
    @Test void aStampStaysWhileNothingChangesAndMovesWithAnyChange() {
        String ns = cluster.newNamespace("stamp");
        Set<String> lab = Set.of(RealCluster.NAME);
        try (Applier applier = cluster.newApplier()) {
            apply(applier, create(RealCluster.NAME, configMap(ns, "a", "1")));
            observe(applier);
            assertTrue(applier.clients().awaitCurrent(Duration.ofSeconds(10)));

            RequestCounts before = cluster.counts();
            java.util.Optional<dev.windlass.applier.observe.FleetStamp> first = applier.stamp(lab);
            assertTrue(first.isPresent(), "every query is watched and proven current");
            assertEquals(first, applier.stamp(lab), "nothing changed");
            assertEquals(0, lists(cluster.countsSince(before)), "a stamp asks nothing");
            assertTrue(applier.ready(lab), "the API server says it is ready");

            cluster.admin().configMaps().inNamespace(ns).withName("a").edit(c -> {
                c.getData().put("key", "by hand");
                return c;
            });
            Await.until(Duration.ofSeconds(10), "the watch delivers the edit", () -> applier.stamp(lab), s -> !s.equals(first));
            assertEquals(Map.of("a", "by hand"), data(observe(applier), ns), "the observation the new stamp stands for");

            apply(applier, create(RealCluster.NAME, configMap(ns, "b", "1")));
            assertEquals(java.util.Optional.empty(), applier.stamp(lab), "after its own write, nothing vouches for the watch until a read proves it");
            assertTrue(applier.clients().awaitCurrent(Duration.ofSeconds(10)));
            assertTrue(applier.stamp(lab).isPresent());
            assertEquals(java.util.Optional.empty(), applier.stamp(Set.of(RealCluster.NAME, "never-observed")), "a cluster never observed has no stamp");
        }
    }

    @Test void theEnginesOwnWritesShowInTheVeryNextObservation() {
        String ns = cluster.newNamespace("own");
        try (Applier applier = cluster.newApplier()) {
            apply(applier, create(RealCluster.NAME, configMap(ns, "counter", "0")));
            observe(applier);
            assertTrue(applier.clients().awaitCurrent(Duration.ofSeconds(10)));
            for (int i = 1; i <= 10; i++) {
                apply(applier, update(RealCluster.NAME, configMap(ns, "counter", String.valueOf(i))));
                RequestCounts before = cluster.counts();
                assertEquals(Map.of("counter", String.valueOf(i)), data(observe(applier), ns), "after write " + i);
                // The watch may well hold the write already, but nothing has proven it: the server is asked.
                assertTrue(cluster.countsSince(before).count("LIST", "configmaps") >= 1, "after write " + i);
            }
            // Once the watch is proven to hold the last write, reads come from it again.
            assertTrue(applier.clients().awaitCurrent(Duration.ofSeconds(10)));
            RequestCounts before = cluster.counts();
            assertEquals(Map.of("counter", "10"), data(observe(applier), ns));
            assertEquals(0, lists(cluster.countsSince(before)));
        }
    }

    @Test void aWriteOfOneKindLeavesTheWatchesOfOtherKindsTrusted() {
        String ns = cluster.newNamespace("kinds");
        Set<KindRef> both = Set.of(CONFIG_MAPS, SECRETS);
        try (Applier applier = cluster.newApplier()) {
            apply(applier, create(RealCluster.NAME, configMap(ns, "m", "1")));
            applier.observe(Map.of(RealCluster.NAME, both));
            assertTrue(applier.clients().awaitCurrent(Duration.ofSeconds(10)));

            apply(applier, update(RealCluster.NAME, configMap(ns, "m", "2")));
            RequestCounts before = cluster.counts();
            ClusterObservation seen = applier.observe(Map.of(RealCluster.NAME, both)).cluster(RealCluster.NAME);
            RequestCounts during = cluster.countsSince(before);

            assertEquals(Map.of("m", "2"), data(seen, ns));
            assertTrue(during.count("LIST", "configmaps") >= 1, during.samples().toString());
            assertEquals(0, during.count("LIST", "secrets"), during.samples().toString());
            assertEquals(0, during.count("LIST", "nodes"), during.samples().toString());
        }
    }

    @Test void changesByOthersArriveThroughTheWatchWithoutAList() {
        String ns = cluster.newNamespace("others");
        try (Applier applier = cluster.newApplier()) {
            apply(applier, create(RealCluster.NAME, configMap(ns, "edited", "mine")), create(RealCluster.NAME, configMap(ns, "deleted", "mine")));
            observe(applier);
            assertTrue(applier.clients().awaitCurrent(Duration.ofSeconds(10)));

            RequestCounts before = cluster.counts();
            cluster.admin().configMaps().inNamespace(ns).withName("edited").edit(c -> {
                c.getData().put("key", "theirs");
                return c;
            });
            cluster.admin().configMaps().inNamespace(ns).withName("deleted").delete();
            Await.until(Duration.ofSeconds(10), "the edit and the deletion to be observed", () -> data(observe(applier), ns),
                    seen -> seen.equals(Map.of("edited", "theirs")));
            RequestCounts during = cluster.countsSince(before);

            assertEquals(0, during.count("LIST", "configmaps"), during.samples().toString());
        }
    }

    @Test void aChangeBehindTheEnginesBackIsSeenAtOnceAfterAwaitingTheWatches() {
        String ns = cluster.newNamespace("behind");
        try (Applier applier = cluster.newApplier()) {
            apply(applier, create(RealCluster.NAME, configMap(ns, "x", "1")));
            observe(applier);
            for (int i = 0; i < 10; i++) {
                String value = "v" + i;
                cluster.admin().configMaps().inNamespace(ns).withName("x").edit(c -> {
                    c.getData().put("key", value);
                    return c;
                });
                assertTrue(applier.clients().awaitCurrent(Duration.ofSeconds(10)));
                assertEquals(Map.of("x", value), data(observe(applier), ns));
            }
        }
    }

    @Test void withoutWatchesEveryObservationLists() {
        String ns = cluster.newNamespace("direct");
        var settings = dev.windlass.applier.cluster.ClientSettings.DEFAULT.withoutWatches();
        var clients = new dev.windlass.applier.cluster.ClusterClients(settings);
        clients.register(RealCluster.NAME, cluster.server().config(), true);
        try (Applier applier = new Applier(clients)) {
            apply(applier, create(RealCluster.NAME, configMap(ns, "y", "1")));
            observe(applier);
            RequestCounts before = cluster.counts();
            assertEquals(Map.of("y", "1"), data(observe(applier), ns));
            RequestCounts during = cluster.countsSince(before);
            assertEquals(2, during.count("LIST", "configmaps"), "managed ConfigMaps and the inventories: " + during.samples());
            assertEquals(0, during.count("WATCH", "configmaps"));
        }
    }

    @Test void aProofIsBelievedForFiveMinutesAndAWatchNobodyReadsCloses() {
        String ns = cluster.newNamespace("proof");
        cluster.admin().configMaps().inNamespace(ns).resource(new ConfigMapBuilder().withNewMetadata().withName("c").endMetadata()
                .addToData("key", "1").build()).create();
        AtomicLong now = new AtomicLong();
        WriteMarks marks = new WriteMarks();
        Query configMaps = Query.of("v1", "ConfigMap").inNamespace(ns);
        Query secrets = Query.of("v1", "Secret").inNamespace(ns);
        try (KubernetesClient client = clientCounting(marks);
             WatchCache cache = new WatchCache(client, marks, now::get)) {
            cache.read(configMaps);
            assertTrue(cache.awaitCurrent(Duration.ofSeconds(10)));
            assertTrue(cache.answersFromWatch(configMaps));

            now.addAndGet(WatchCache.PROOF_LASTS.minusSeconds(1).toNanos());
            assertTrue(cache.answersFromWatch(configMaps));
            now.addAndGet(Duration.ofSeconds(2).toNanos());
            assertFalse(cache.answersFromWatch(configMaps));

            RequestCounts before = cluster.counts();
            assertEquals(1, cache.read(configMaps).size());
            assertEquals(1, cluster.countsSince(before).count("LIST", "configmaps"));
            assertTrue(cache.answersFromWatch(configMaps), "the LIST proved the watch again");

            // A Secret there, so that the first read of the query opens its watch (see the test below for one that lists nothing).
            cluster.admin().secrets().inNamespace(ns).resource(new io.fabric8.kubernetes.api.model.SecretBuilder().withNewMetadata().withName("s")
                    .endMetadata().addToStringData("key", "1").build()).create();
            cache.read(secrets);
            now.addAndGet(WatchCache.IDLE.plusSeconds(1).toNanos());
            cache.read(secrets);
            assertEquals(List.of(secrets), cache.watching());
        }
    }

    @Test void aQueryThatListsNothingAtFirstIsWatchedFromItsNextReadSoTheCreatesBetweenBringNoEvents() {
        String ns = cluster.newNamespace("first");
        WriteMarks marks = new WriteMarks();
        Query configMaps = Query.of("v1", "ConfigMap").inNamespace(ns);
        try (KubernetesClient client = clientCounting(marks);
             WatchCache cache = new WatchCache(client, marks)) {
            RequestCounts before = cluster.counts();
            assertEquals(List.of(), cache.read(configMaps));
            // What a first sync does next: it creates what the query lists.
            for (String name : List.of("a", "b")) {
                client.configMaps().inNamespace(ns).resource(new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata()
                        .addToData("key", "1").build()).create();
            }
            assertEquals(List.of(), cache.watching());
            assertEquals(0, cluster.countsSince(before).count("WATCH", "configmaps"), cluster.countsSince(before).samples().toString());

            // The next read lists the creates and opens the watch; once it is proven, reads come from it.
            assertEquals(2, cache.read(configMaps).size());
            assertEquals(List.of(configMaps), cache.watching());
            assertTrue(cache.awaitCurrent(Duration.ofSeconds(10)));
            RequestCounts quiet = cluster.counts();
            assertEquals(2, cache.read(configMaps).size());
            assertEquals(0, cluster.countsSince(quiet).count("LIST", "configmaps"), cluster.countsSince(quiet).samples().toString());
        }
    }

    @Test void aQueryThatStaysEmptyAndUnwrittenIsWatchedFromItsThirdRead() {
        String ns = cluster.newNamespace("empty");
        WriteMarks marks = new WriteMarks();
        Query secrets = Query.of("v1", "Secret").inNamespace(ns);
        try (KubernetesClient client = clientCounting(marks);
             WatchCache cache = new WatchCache(client, marks)) {
            for (int read = 1; read <= WatchCache.PUT_OFF_READS; read++) {
                assertEquals(List.of(), cache.read(secrets));
                assertEquals(List.of(), cache.watching(), "after read " + read);
            }
            assertEquals(List.of(), cache.read(secrets));
            assertEquals(List.of(secrets), cache.watching());
        }
    }

    @Test void awaitingTheWatchesOpensThosePutOffSoChangesByOthersArriveWithoutAList() {
        String ns = cluster.newNamespace("putoff");
        WriteMarks marks = new WriteMarks();
        Query configMaps = Query.of("v1", "ConfigMap").inNamespace(ns);
        try (KubernetesClient client = clientCounting(marks);
             WatchCache cache = new WatchCache(client, marks)) {
            assertEquals(List.of(), cache.read(configMaps));
            assertTrue(cache.awaitCurrent(Duration.ofSeconds(10)));
            assertEquals(List.of(configMaps), cache.watching());

            RequestCounts before = cluster.counts();
            cluster.admin().configMaps().inNamespace(ns).resource(new ConfigMapBuilder().withNewMetadata().withName("theirs").endMetadata()
                    .addToData("key", "1").build()).create();
            Await.until(Duration.ofSeconds(10), "their ConfigMap to be read from the watch", () -> cache.read(configMaps), read -> read.size() == 1);
            assertEquals(0, cluster.countsSince(before).count("LIST", "configmaps"), cluster.countsSince(before).samples().toString());
        }
    }

    @Test void aListHandsOutTheWatchsBodyForAnObjectThatDidNotChange() {
        String ns = cluster.newNamespace("same");
        for (String name : List.of("a", "b")) {
            cluster.admin().configMaps().inNamespace(ns).resource(new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata()
                    .addToData("key", "1").build()).create();
        }
        AtomicLong now = new AtomicLong();
        WriteMarks marks = new WriteMarks();
        Query configMaps = Query.of("v1", "ConfigMap").inNamespace(ns);
        Lists lists = new Lists();
        try (KubernetesClient client = clientCounting(marks, lists);
             WatchCache cache = new WatchCache(client, marks, now::get)) {
            cache.read(configMaps);
            assertTrue(cache.awaitCurrent(Duration.ofSeconds(10)));
            List<Map<String, Object>> first = cache.read(configMaps);

            cluster.admin().configMaps().inNamespace(ns).withName("b").edit(c -> {
                c.getData().put("key", "2");
                return c;
            });
            now.addAndGet(WatchCache.PROOF_LASTS.plusSeconds(1).toNanos());   // the proof expired: the next read LISTs
            RequestCounts before = cluster.counts();
            lists.clear();
            List<Map<String, Object>> second = cache.read(configMaps);
            // The metadata first; the whole objects only when the watch had not delivered b's change yet.
            assertEquals(1, lists.metadataOnly(), lists.toString());
            assertTrue(lists.whole() <= 1, lists.toString());
            assertEquals(1 + lists.whole(), cluster.countsSince(before).count("LIST", "configmaps"));

            assertSame(first.get(0), second.get(0), "a did not change: the LIST hands out the body the watch holds");
            assertNotSame(first.get(1), second.get(1));
            assertEquals("2", ((Map<?, ?>) second.get(1).get("data")).get("key"), "b changed: its new version, whichever came first");
        }
    }

    /**
     * A quiet watch whose proof ran out is proven again by a LIST of its objects' metadata alone: the API server sends
     * names and resource versions, not the objects, and the read hands out the very bodies the watch holds. At 1,000
     * apps the whole LISTs were a third of a quiet day's CPU, every five minutes.
     */
    @Test void aQuietWatchIsProvenAgainByItsObjectsMetadataAlone() {
        String ns = labelledConfigMaps("versions", "a", "b", "c");
        provenByMetadataAlone(Query.of("v1", "ConfigMap").inNamespace(ns), 3);
    }

    /** The same for the engine's own queries: every namespace's objects of a kind that carry its label. */
    @Test void aQuietLabelledWatchOfEveryNamespaceIsProvenAgainByItsObjectsMetadataAlone() {
        String ns = labelledConfigMaps("labelled", "a", "b");
        provenByMetadataAlone(Query.of("v1", "ConfigMap").withLabel(PROOF_LABEL, ns), 2);
    }

    /**
     * A quiet cluster's stamp turns null when a proof runs out, and a pass that finds it null is whole. Renewing the
     * proofs first proves the watch again by one LIST of metadata, and the stamp is what it was before; a watch whose
     * kind was written since is left for a read to LIST whole.
     */
    @Test void renewingARunOutProofGivesBackTheSameStampForOneListOfMetadata() {
        String ns = labelledConfigMaps("renew", "a", "b");
        Query configMaps = Query.of("v1", "ConfigMap").inNamespace(ns);
        Query secrets = Query.of("v1", "Secret").inNamespace(ns);
        cluster.admin().secrets().inNamespace(ns).resource(new io.fabric8.kubernetes.api.model.SecretBuilder().withNewMetadata().withName("s")
                .endMetadata().addToStringData("key", "1").build()).create();
        AtomicLong now = new AtomicLong();
        WriteMarks marks = new WriteMarks();
        Lists lists = new Lists();
        try (KubernetesClient client = clientCounting(marks, lists);
             WatchCache cache = new WatchCache(client, marks, now::get)) {
            cache.read(configMaps);
            cache.read(secrets);
            assertTrue(cache.awaitCurrent(Duration.ofSeconds(10)));
            ReadsStamp quiet = cache.stamp();
            assertTrue(quiet != null && quiet.changes().keySet().equals(Set.of(configMaps, secrets)), String.valueOf(quiet));

            now.addAndGet(WatchCache.PROOF_LASTS.plusSeconds(1).toNanos());
            assertEquals(null, cache.stamp(), "a proof ran out: a read would ask the cluster");
            RequestCounts before = cluster.counts();
            lists.clear();
            cache.renewProofs();
            assertEquals(quiet, cache.stamp(), "proven again, it answers as before");
            assertEquals(1, cluster.countsSince(before).count("LIST", "configmaps"));
            assertEquals(1, cluster.countsSince(before).count("LIST", "secrets"));
            assertEquals(2, lists.metadataOnly(), lists.toString());
            assertEquals(0, lists.whole(), lists.toString());

            // A Secret written by this client: that watch is unproven by the write, and renewing leaves it to a read.
            now.addAndGet(WatchCache.PROOF_LASTS.plusSeconds(1).toNanos());
            client.secrets().inNamespace(ns).resource(new io.fabric8.kubernetes.api.model.SecretBuilder().withNewMetadata().withName("t")
                    .endMetadata().addToStringData("key", "2").build()).create();
            before = cluster.counts();
            lists.clear();
            cache.renewProofs();
            assertEquals(0, cluster.countsSince(before).count("LIST", "secrets"), "its kind was written: not renewed");
            assertEquals(1, lists.metadataOnly(), "the ConfigMaps' proof alone: " + lists);
            assertEquals(null, cache.stamp());
            assertTrue(cache.answersFromWatch(configMaps));
            assertFalse(cache.answersFromWatch(secrets));
        }
    }

    private static final String PROOF_LABEL = "windlass.dev/proof-test";

    /** A new namespace holding ConfigMaps of these names, each labelled with the namespace's name. */
    private static String labelledConfigMaps(String prefix, String... names) {
        String ns = cluster.newNamespace(prefix);
        for (String name : names) {
            cluster.admin().configMaps().inNamespace(ns).resource(new ConfigMapBuilder().withNewMetadata().withName(name)
                    .addToLabels(PROOF_LABEL, ns).endMetadata().addToData("key", name).build()).create();
        }
        return ns;
    }

    /** Once the proof of {@code query}'s watch ran out, one LIST of metadata only proves it again, and its bodies are handed out as held. */
    private static void provenByMetadataAlone(Query query, int objects) {
        AtomicLong now = new AtomicLong();
        WriteMarks marks = new WriteMarks();
        Lists lists = new Lists();
        try (KubernetesClient client = clientCounting(marks, lists);
             WatchCache cache = new WatchCache(client, marks, now::get)) {
            cache.read(query);
            assertTrue(cache.awaitCurrent(Duration.ofSeconds(10)));
            List<Map<String, Object>> first = cache.read(query);
            assertEquals(objects, first.size());

            now.addAndGet(WatchCache.PROOF_LASTS.plusSeconds(1).toNanos());
            assertFalse(cache.answersFromWatch(query));
            RequestCounts before = cluster.counts();
            lists.clear();
            List<Map<String, Object>> again = cache.read(query);

            assertEquals(1, cluster.countsSince(before).count("LIST", "configmaps"));
            assertEquals(1, lists.metadataOnly(), lists.toString());
            assertEquals(0, lists.whole(), lists.toString());
            assertEquals(objects, again.size());
            for (int i = 0; i < objects; i++) assertSame(first.get(i), again.get(i), "the body the watch holds");
            assertTrue(cache.answersFromWatch(query), "proven again");
        }
    }

    /**
     * A LIST longer than a page is read page by page (a few hundred KiB in flight, not the whole kind at once), the
     * watch's own LIST as well, and nothing is lost or doubled between pages.
     */
    @Test void aListLongerThanAPageIsReadPageByPageAndWhole() {
        String ns = cluster.newNamespace("pages");
        int count = (int) (2 * Listing.PAGE + 1);
        for (int i = 0; i < count; i++) {
            cluster.admin().configMaps().inNamespace(ns).resource(new ConfigMapBuilder().withNewMetadata().withName(String.format("c-%03d", i))
                    .endMetadata().addToData("key", Integer.toString(i)).build()).create();
        }
        WriteMarks marks = new WriteMarks();
        Query configMaps = Query.of("v1", "ConfigMap").inNamespace(ns);
        try (KubernetesClient client = clientCounting(marks);
             WatchCache cache = new WatchCache(client, marks)) {
            RequestCounts before = cluster.counts();
            List<Map<String, Object>> read = cache.read(configMaps);
            assertEquals(count, read.size());
            for (int i = 0; i < count; i++) {
                assertEquals(String.format("c-%03d", i), ((Map<?, ?>) read.get(i).get("metadata")).get("name"));
                assertEquals(Integer.toString(i), ((Map<?, ?>) read.get(i).get("data")).get("key"));
            }
            assertTrue(cache.awaitCurrent(Duration.ofSeconds(20)), "the watch, opened from its own LIST in pages, is proven current");
            // The read's LIST, the watch's own and the one that proved it (or more, while the watch caught up): each
            // three requests, a page apiece (one request each, read whole, before pages).
            long lists = cluster.countsSince(before).count("LIST", "configmaps");
            assertTrue(lists >= 9 && lists % 3 == 0, lists + " LISTs: " + cluster.countsSince(before).samples());
            RequestCounts quiet = cluster.counts();
            assertEquals(read, cache.read(configMaps), "the watch holds every page");
            assertEquals(0, cluster.countsSince(quiet).count("LIST", "configmaps"));
        }
    }

    private static void apply(Applier applier, dev.windlass.policy.plan.Action... actions) {
        List<dev.windlass.policy.plan.Action> all = java.util.Arrays.stream(actions).map(a -> serverSide(a)).toList();
        List<ActionResult> results = applier.execute(new Stage("apply", "", all));
        assertFalse(results.stream().anyMatch(r -> r.outcome() == Outcome.Failed), results.toString());
    }

    private static ClusterObservation observe(Applier applier) {
        return applier.observe(Map.of(RealCluster.NAME, Set.of(CONFIG_MAPS))).cluster(RealCluster.NAME);
    }

    /** Name to {@code data.key} of the managed ConfigMaps observed in {@code ns}. */
    @SuppressWarnings("unchecked")
    private static Map<String, String> data(ClusterObservation observed, String ns) {
        Map<String, String> out = new TreeMap<>();
        for (Map.Entry<ObjectRef, LiveObject> e : observed.objects().entrySet()) {
            if (!ns.equals(e.getKey().namespace())) continue;
            Map<String, Object> data = (Map<String, Object>) e.getValue().body().get("data");
            out.put(e.getKey().name(), String.valueOf(data.get("key")));
        }
        return out;
    }

    /** A client of the cluster whose writes {@code marks} counts, as the engine's clients are built. */
    private static KubernetesClient clientCounting(WriteMarks marks) { return clientCounting(marks, new Lists()); }

    /** The same, and {@code lists} notes what each LIST it sends asks the server for. */
    private static KubernetesClient clientCounting(WriteMarks marks, Lists lists) {
        return new KubernetesClientBuilder().withConfig(cluster.server().config())
                .withHttpClientBuilderConsumer(http -> http.addOrReplaceInterceptor("marks", marks).addOrReplaceInterceptor("lists", lists)).build();
    }

    /** The LISTs a client sent (GETs of a collection, not watches), by what they asked for: metadata only, or the objects. */
    private static final class Lists implements io.fabric8.kubernetes.client.http.Interceptor {
        private final java.util.List<String> accepts = new java.util.concurrent.CopyOnWriteArrayList<>();

        @Override public void before(io.fabric8.kubernetes.client.http.BasicBuilder builder, io.fabric8.kubernetes.client.http.HttpRequest request,
                                     RequestTags tags) {
            String query = request.uri().getRawQuery();
            if (!"GET".equals(request.method()) || query == null || !query.contains("limit=") || query.contains("watch=")) return;
            String accept = request.header("Accept");
            accepts.add(accept == null ? "" : accept);
        }

        long metadataOnly() { return accepts.stream().filter(a -> a.contains("as=PartialObjectMetadataList")).count(); }

        long whole() { return accepts.size() - metadataOnly(); }

        void clear() { accepts.clear(); }

        @Override public String toString() {
            return accepts.stream().map(a -> a.contains("as=PartialObjectMetadataList") ? "metadata only" : "whole objects").toList().toString();
        }
    }

    private static long lists(RequestCounts counts) {
        return counts.samples().stream().filter(s -> s.verb().equals("LIST")).mapToLong(RequestCounts.Sample::count).sum();
    }
}
