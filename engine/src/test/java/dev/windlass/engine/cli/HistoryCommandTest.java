package dev.windlass.engine.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.windlass.engine.status.CommitMessage;
import dev.windlass.engine.status.CommitWriter;
import dev.windlass.engine.status.StatusFiles;
import dev.windlass.git.BranchChange;
import dev.windlass.git.CommitOutcome;
import dev.windlass.git.ConfigWriter;
import dev.windlass.git.GitRemote;
import dev.windlass.git.Mirror;
import dev.windlass.git.StatusWriter;
import dev.windlass.policy.plan.Event;
import dev.windlass.policy.plan.EventLine;
import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.state.ClusterStatus;
import dev.windlass.policy.state.EngineState;
import dev.windlass.policy.state.EvictionReason;
import dev.windlass.policy.state.EvictionTask;
import dev.windlass.policy.state.FailoverMemory;
import dev.windlass.policy.state.FailoverRecord;
import dev.windlass.policy.state.PreservedValue;
import java.time.Instant;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.eclipse.jgit.api.Git;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** windlass history against a real Git origin whose status branch records an application's failovers. */
class HistoryCommandTest {
    static final PreservedValue OFFSET = new PreservedValue("windlass.dev/offset", "4700", "apps/StatefulSet stream/ingest");

    static final FailoverMemory MEMORY = new FailoverMemory(
            List.of(new EvictionTask("eu-1", dev.windlass.policy.state.EvictionReason.ClusterUnreachable, dev.windlass.policy.model.FailoverPolicy.PurgeMode.Gracefully, 600, List.of("eu-1", "us-1"), List.of("eu-2", "us-1"),
                            List.of(OFFSET), List.of("$.status.lag matched nothing on eu-1"), Instant.parse("2026-11-21T09:05:00Z"), null, null, EvictionTask.Purge.Pending),
                    new EvictionTask("ap-1", dev.windlass.policy.state.EvictionReason.ApplicationFailure, dev.windlass.policy.model.FailoverPolicy.PurgeMode.Never, null, List.of("ap-1", "us-1"), List.of("ap-2", "us-1"),
                            List.of(), List.of(), Instant.parse("2026-11-20T08:00:00Z"), Instant.parse("2026-11-20T08:03:10Z"), null, EvictionTask.Purge.Orphaned)),
            List.of(new FailoverRecord(List.of("eu-3", "us-1"), List.of("eu-1", "us-1"), dev.windlass.policy.state.EvictionReason.ClusterNotReady, Instant.parse("2026-11-18T22:59:30Z"),
                            Instant.parse("2026-11-18T23:00:12Z"), List.of(new PreservedValue("windlass.dev/offset", "4100", "apps/StatefulSet stream/ingest"),
                                    new PreservedValue("windlass.dev/epoch", "7", "apps/StatefulSet stream/ingest")), null),
                    new FailoverRecord(List.of("ap-1", "us-1"), List.of("ap-2", "us-1"), dev.windlass.policy.state.EvictionReason.ApplicationFailure, Instant.parse("2026-11-20T08:00:00Z"),
                            Instant.parse("2026-11-20T08:03:10Z"), List.of(), null)),
            List.of(new FailoverRecord(List.of("eu-1", "us-1"), List.of("eu-3", "us-1"), dev.windlass.policy.state.EvictionReason.ClusterUnreachable, Instant.parse("2026-11-19T07:00:00Z"),
                    Instant.parse("2026-11-19T07:02:00Z"), List.of(OFFSET), "eu-3 became unreachable too before it was healthy")),
            List.of("ap-1"));

    static final EngineState STATE = EngineState.of("c0ffee0000000000000000000000000000000000",
            Map.of("stream", app("stream").withFailover(MEMORY), "web", app("web")),
            Map.of("eu-2", new ClusterStatus("eu-2", "clusters/eu-2.yaml", dev.windlass.policy.state.Reachability.Reachable, "", "ClientSide", 3, 3, List.of())));

    @TempDir Path dir;
    Git origin;
    String url;

    @BeforeEach void pushTheFleet() throws Exception {
        origin = Git.init().setBare(true).setDirectory(dir.resolve("origin.git").toFile()).setInitialBranch("main").call();
        url = dir.resolve("origin.git").toUri().toString();
        try (Mirror mirror = Mirror.open(dir.resolve("dev-mirror"), GitRemote.anonymous(url))) {
            CommitOutcome out = new ConfigWriter(mirror, "main").write(tip -> BranchChange.of("fleet", "Dev", "dev@example.com")
                    .write("clusters/eu-2.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Cluster\nmetadata:\n  name: eu-2\n"));
            assertTrue(out instanceof CommitOutcome.Committed, out.toString());
        }
    }

    @AfterEach void close() { origin.close(); }

    /** Records {@code state} on the status branch, as the engine does. */
    void recordStatus(EngineState state) throws Exception {
        recordStatus(state, "windlass: status");
    }

    void recordStatus(EngineState state, String message) throws Exception {
        try (Mirror mirror = Mirror.open(dir.resolve("engine-mirror"), GitRemote.anonymous(url))) {
            BranchChange change = BranchChange.of(message, "Windlass", "windlass@example.com");
            for (var file : StatusFiles.render(state).entrySet()) change = change.write(file.getKey(), file.getValue());
            CommitOutcome out = new StatusWriter(mirror).write(change);
            assertTrue(out instanceof CommitOutcome.Committed, out.toString());
        }
    }

    record Run(int code, String out, String err) {}

    Run windlass(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--repo", url, "--workdir", dir.resolve("cli-mirror").toString()));
        int code = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), all.toArray(String[]::new));
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void printsCompletedAndFailedFailoversAndWhatIsUnderWay() throws Exception {
        recordStatus(STATE);

        Run history = windlass("history", "stream");

        assertEquals(new Run(0, """
                Failover history of stream (newest last, limit kept by the policy)
                START (UTC)          TOOK   REASON              FROM → TO                PRESERVED
                2026-11-18 22:59:30  42s    ClusterNotReady     eu-3, us-1 → eu-1, us-1  windlass.dev/offset=4100, windlass.dev/epoch=7
                2026-11-20 08:00:00  3m10s  ApplicationFailure  ap-1, us-1 → ap-2, us-1  -

                Failed attempts
                START (UTC)          GAVE UP AFTER  REASON              FROM → TO                FAILURE
                2026-11-19 07:00:00  2m             ClusterUnreachable  eu-1, us-1 → eu-3, us-1  eu-3 became unreachable too before it was healthy

                In progress
                  eu-1 failing over to eu-2 since 2026-11-21 09:05:00 (ClusterUnreachable); old copy: Pending; carrying windlass.dev/offset=4700; note: $.status.lag matched nothing on eu-1
                  ap-1 excluded until healthy for the toleration; old copy: Orphaned

                Copies left running (purgeMode Never): ap-1
                """, ""), history);
    }

    @Test
    void failoverCommitsNameWhoWroteThemAndAWriterNotReadAsWrittenIsUnknown() throws Exception {
        String source = "c0ffee0000000000000000000000000000000000";
        // A line no engine writes (there is no purge mode "Graciously"): history lists the commit by its trailers, whatever its words.
        String started = "stream failover eu-1 → eu-2 started (ClusterUnreachable), purge Graciously";
        Event healthy = new Event.FailoverHealthy("stream", "eu-1", List.of("eu-2"), EvictionReason.ClusterUnreachable, 42);
        recordStatus(withRevision("1111aa"), "windlass: " + started + "\n\n- " + started + "\n\nWindlass-Source: " + source
                + "\nWindlass-Event: Failover\n" + CommitWriter.unsharded("engine-0_1a2b3c4d").trailers());
        recordStatus(withRevision("2222bb"), CommitMessage.of(List.of(new Event.Synced("stream", "2222bb", "eu-2", 1, 0, 0)), source,
                List.of(), new CommitWriter("windlass-2_9f8e7d6c", new TreeSet<>(List.of(0, 2)))));
        recordStatus(withRevision("3333cc"), CommitMessage.of(List.of(healthy), source, List.of(),
                new CommitWriter("windlass-2_9f8e7d6c", new TreeSet<>(List.of(0, 2)))));
        // An earlier engine's commit, without the writer's trailers; then one whose trailers are not as an engine writes them.
        recordStatus(withRevision("4444dd"), "windlass: stream failover ap-1 → ap-2 started\n\nWindlass-Source: " + source
                + "\nWindlass-Event: Failover\n");
        recordStatus(withRevision("5555ee"), "windlass: stream failover ap-1 → ap-2 healthy\n\nWindlass-Source: " + source
                + "\nWindlass-Event: Failover\nWindlass-Replica: windlass-2_9f8e7d6c\nWindlass-Shards: all\n");

        Run history = windlass("history", "stream");

        assertEquals(0, history.code(), history.err());
        String commits = history.out().substring(history.out().indexOf("\nFailover commits on windlass/status (newest last)\n") + 1);
        List<String> rows = commits.lines().toList();
        assertEquals(6, rows.size(), "a title, a header and the four failover commits; not the Sync one:\n" + history.out());
        assertTrue(rows.get(1).matches("COMMIT +TIME \\(UTC\\) +WRITTEN BY +SUBJECT"), rows.get(1));
        assertTrue(rows.get(2).matches("[0-9a-f]{7}  \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d  engine-0_1a2b3c4d \\(unsharded\\) +"
                + "windlass: stream failover eu-1 → eu-2 started \\(ClusterUnreachable\\), purge Graciously"), rows.get(2));
        assertTrue(rows.get(3).contains("  windlass-2_9f8e7d6c (shards 0,2)  ") && rows.get(3).endsWith("windlass: " + EventLine.of(healthy)), rows.get(3));
        assertTrue(rows.get(4).contains("  unknown writer  ") && rows.get(4).endsWith("windlass: stream failover ap-1 → ap-2 started"), rows.get(4));
        assertTrue(rows.get(5).contains("  unknown writer  ") && rows.get(5).endsWith("windlass: stream failover ap-1 → ap-2 healthy"), rows.get(5));
    }

    static EngineState withRevision(String revision) {
        AppStatus stream = new AppStatus("stream", "apps/stream/app.yaml", revision, "c0ffee0000000000000000000000000000000000", true,
                List.of(), List.of("eu-2"), List.of(), List.of()).withFailover(MEMORY);
        return EngineState.of("c0ffee0000000000000000000000000000000000", Map.of("stream", stream), STATE.clusters());
    }

    @Test
    void anApplicationThatNeverFailedOverSaysSo() throws Exception {
        recordStatus(STATE);

        assertEquals(new Run(0, """
                Failover history of web (newest last, limit kept by the policy)
                no completed failovers
                """, ""), windlass("history", "web"));
    }

    @Test
    void yamlIsTheFailoverMemoryAsRecorded() throws Exception {
        recordStatus(STATE);

        Run yaml = windlass("history", "stream", "-o", "yaml");

        assertEquals(0, yaml.code(), yaml.err());
        ObjectMapper reader = new ObjectMapper(new YAMLFactory()).configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true)
                .registerModule(new com.fasterxml.jackson.datatype.jsr310.JavaTimeModule());
        assertEquals(MEMORY, reader.readValue(yaml.out(), FailoverMemory.class));
        assertTrue(yaml.out().startsWith("evictions:\n  - fromCluster: eu-1\n"), yaml.out());
    }

    @Test
    void unknownApplicationOrNoStatusExitsWithOne() throws Exception {
        Run before = windlass("history", "stream");
        assertEquals(1, before.code());
        assertEquals("", before.out());
        assertEquals("no status yet on branch windlass/status of " + url + "; is the engine running?\n", before.err());

        recordStatus(STATE);
        assertEquals(new Run(1, "", "no application 'strem' in the status; known: stream, web\n"), windlass("history", "strem"));
    }

    static AppStatus app(String name) {
        return new AppStatus(name, "apps/" + name + "/app.yaml", "5e22aa", "c0ffee0000000000000000000000000000000000", true,
                List.of(), List.of("eu-2"), List.of(), List.of());
    }
}
