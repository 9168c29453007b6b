package dev.windlass.engine.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.state.EngineState;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The upgrade contract: a status branch written by an earlier engine (src/test/resources/status-v1, from a demo run, with a
 * rollout under way, a failover history and remediation records; see its README) is read by this engine without losing
 * anything: every application and cluster file written back is the file that was read, field for field and byte for byte,
 * with only the format's version added on top. A renamed or dropped field breaks it. Never change the fixture to make it
 * pass: teach the reader the old name.
 */
class StatusUpgradeContractTest {
    static final Path FIXTURE = Path.of("src", "test", "resources", "status-v1");

    @Test
    void aStatusBranchWrittenBeforeVersionsIsReadWithoutLosingAnything() throws IOException {
        SortedMap<String, byte[]> written = files();
        EngineState state = StatusFiles.read(written);

        AppStatus web = state.apps().get("web");
        assertTrue(web.rollout() != null && web.rollout().active(), "web's rollout is under way: " + web.rollout());
        assertEquals(1, state.apps().get("stream").failoverMemory().history().size(), "stream's failover history");
        assertTrue(state.clusters().get("eu-1").remediation().size() >= 3, "eu-1's remediation records");
        assertEquals("us", state.apps().get("shop").target("us-1").variant(), "the variant us-1 got");

        SortedMap<String, byte[]> again = StatusFiles.render(state);
        for (var e : written.entrySet()) {
            if (e.getKey().equals(StatusFiles.FLEET)) continue;  // a summary of the others (and web's file is from another commit)
            String before = new String(e.getValue(), StandardCharsets.UTF_8);
            String after = new String(again.get(e.getKey()), StandardCharsets.UTF_8);
            assertEquals("apiVersion: " + StatusFiles.API_VERSION + "\n" + before, after, e.getKey() + " written back as it was read");
        }
        assertEquals(state.source(), StatusFiles.read(again).source());
        assertEquals(state, StatusFiles.read(again), "read again after writing: the same state");
    }

    @Test
    void aStatusFileOfANewerFormatIsRefusedNeverGuessed() {
        SortedMap<String, byte[]> files = files();
        files.put("status/apps/web.yaml", ("apiVersion: windlass.dev/status/v2\n" + new String(files.get("status/apps/web.yaml"),
                StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8));
        var refused = assertThrows(StatusFiles.UnsupportedStatusVersion.class, () -> StatusFiles.read(files));
        assertEquals("status/apps/web.yaml is in status format windlass.dev/status/v2, which this engine (windlass.dev/status/v1) does not"
                + " know: it was written by a newer Windlass. Run that version, or give this one a status branch of its own"
                + " (--status-branch); nothing was read or written", refused.getMessage());
    }

    @Test
    void aFieldTheFormatDoesNotHaveIsRefusedNeverDropped() {
        SortedMap<String, byte[]> files = files();
        String web = new String(files.get("status/apps/web.yaml"), StandardCharsets.UTF_8);
        files.put("status/apps/web.yaml", web.replaceFirst("\n  waves: ", "\n  canaryWeight: 10\n  waves: ").getBytes(StandardCharsets.UTF_8));
        var refused = assertThrows(StatusFiles.UnsupportedStatusVersion.class, () -> StatusFiles.read(files));
        assertEquals("status/apps/web.yaml: rollout.canaryWeight is not a field of status format windlass.dev/status/v1: it was written by a"
                + " Windlass that knows more than this one (windlass.dev/status/v1). Run that version, or give this one a status branch of its"
                + " own (--status-branch); nothing was read or written", refused.getMessage());
    }

    @Test
    void aStateTheFormatDoesNotNameIsRefusedNeverGuessed() {
        SortedMap<String, byte[]> files = files();
        String web = new String(files.get("status/apps/web.yaml"), StandardCharsets.UTF_8);
        assertTrue(web.contains("\n  result: Progressing\n"), web);
        files.put("status/apps/web.yaml", web.replace("\n  result: Progressing\n", "\n  result: HalfWay\n").getBytes(StandardCharsets.UTF_8));
        var refused = assertThrows(java.io.UncheckedIOException.class, () -> StatusFiles.read(files));
        assertEquals("status file status/apps/web.yaml cannot be read: rollout.result: 'HalfWay' is not one of Progressing, Paused, Succeeded,"
                + " Failed, RolledBack, Superseded", refused.getMessage());
    }

    /**
     * An eviction whose purge mode is a word this engine does not know is refused, never read as a mode that deletes the
     * old copy (an earlier engine read any word but Never and Gracefully as Directly, and deleted it); the old names an
     * earlier engine wrote read as what they meant.
     */
    @Test
    void anEvictionWithAPurgeModeTheFormatDoesNotNameIsRefusedAndTheOldNamesReadAsMeant() throws Exception {
        SortedMap<String, byte[]> files = files();
        String stream = new String(files.get("status/apps/stream.yaml"), StandardCharsets.UTF_8);
        assertTrue(stream.contains("\n  evictions: []\n"), stream);
        String eviction = "\n  evictions:\n    - fromCluster: eu-1\n      reason: ClusterUnreachable\n      purgeMode: %s\n"
                + "      clustersBeforeFailover: [eu-1]\n      clustersAfterFailover: [eu-2]\n      createdAt: 2026-11-25T13:26:10Z\n";
        java.util.function.Function<String, SortedMap<String, byte[]>> with = mode -> {
            SortedMap<String, byte[]> changed = new java.util.TreeMap<>(files);
            changed.put("status/apps/stream.yaml", stream.replace("\n  evictions: []\n", eviction.formatted(mode)).getBytes(StandardCharsets.UTF_8));
            return changed;
        };
        var refused = assertThrows(java.io.UncheckedIOException.class, () -> StatusFiles.read(with.apply("Sometimes")));
        assertEquals("status file status/apps/stream.yaml cannot be read: failover.evictions[].purgeMode: 'Sometimes' is not one of Directly,"
                + " Gracefully, Never", refused.getMessage());
        var missing = assertThrows(java.io.UncheckedIOException.class, () -> StatusFiles.read(with.apply("null")));
        assertTrue(missing.getMessage().contains("failover.evictions[].purgeMode is missing"), missing.getMessage());
        assertEquals(dev.windlass.policy.model.FailoverPolicy.PurgeMode.Gracefully,
                StatusFiles.read(with.apply("Graciously")).apps().get("stream").failover().evictions().get(0).purgeMode());
        assertEquals(dev.windlass.policy.model.FailoverPolicy.PurgeMode.Directly,
                StatusFiles.read(with.apply("Immediately")).apps().get("stream").failover().evictions().get(0).purgeMode());
        assertEquals(dev.windlass.policy.model.FailoverPolicy.PurgeMode.Never,
                StatusFiles.read(with.apply("Never")).apps().get("stream").failover().evictions().get(0).purgeMode());

        // The same for why it left: a reason this engine does not know is refused, never taken for one it does.
        SortedMap<String, byte[]> oddReason = with.apply("Never");
        oddReason.put("status/apps/stream.yaml", new String(oddReason.get("status/apps/stream.yaml"), StandardCharsets.UTF_8)
                .replace("      reason: ClusterUnreachable\n      purgeMode", "      reason: CosmicRays\n      purgeMode").getBytes(StandardCharsets.UTF_8));
        var unknownReason = assertThrows(java.io.UncheckedIOException.class, () -> StatusFiles.read(oddReason));
        assertEquals("status file status/apps/stream.yaml cannot be read: failover.evictions[].reason: 'CosmicRays' is not one of"
                + " ClusterUnreachable, ClusterNotReady, ApplicationFailure", unknownReason.getMessage());
    }

    @Test
    void aRetryOfAKindTheFormatDoesNotNameIsRefusedAndOneThatReadsBackIsKept() throws Exception {
        SortedMap<String, byte[]> files = files();
        String web = new String(files.get("status/apps/web.yaml"), StandardCharsets.UTF_8);
        String retry = "\n    retry:\n      failures: 3\n      next: 2026-11-27T10:00:00Z\n      kind: %s\n      input: 0123456789abcdef\n";
        String withRetry = web.replaceFirst("\n    health: Healthy\n", "\n    health: Healthy" + retry.formatted("Lasting"));
        files.put("status/apps/web.yaml", withRetry.getBytes(StandardCharsets.UTF_8));
        var kept = StatusFiles.read(files).apps().get("web").target("eu-1").retry();
        assertEquals(new dev.windlass.policy.state.Retry(3, java.time.Instant.parse("2026-11-27T10:00:00Z"), dev.windlass.policy.state.Retry.Kind.Lasting,
                "0123456789abcdef"), kept);

        files.put("status/apps/web.yaml", web.replaceFirst("\n    health: Healthy\n", "\n    health: Healthy" + retry.formatted("Forever"))
                .getBytes(StandardCharsets.UTF_8));
        var refused = assertThrows(java.io.UncheckedIOException.class, () -> StatusFiles.read(files));
        assertEquals("status file status/apps/web.yaml cannot be read: targets[].retry.kind: 'Forever' is not one of Lasting, Transient",
                refused.getMessage());
    }

    static SortedMap<String, byte[]> files() {
        SortedMap<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(FIXTURE.resolve("status"))) {
            for (Path p : walk.filter(Files::isRegularFile).toList()) {
                files.put(FIXTURE.relativize(p).toString().replace('\\', '/'), Files.readAllBytes(p));
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return files;
    }

}
