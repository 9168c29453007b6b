package dev.windlass.engine.status;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.plan.ActionReason;
import dev.windlass.policy.plan.Event;
import java.util.List;
import org.junit.jupiter.api.Test;

class CommitMessageTest {
    static final String SHA = "04b5e240090f9b526df41efbaec25bafe4a4d5d3";
    static final CommitWriter ALONE = CommitWriter.unsharded("engine-0_1a2b3c4d");

    @Test
    void oneLineSubjectEveryEventInTheBodyAndTrailers() {
        String m = CommitMessage.of(List.of(
                new Event.Synced("web", "1d7b01005e22", "eu-1", 0, 1, 0),
                new Event.Synced("web", "1d7b01005e22", "eu-2", 0, 1, 0),
                new Event.Pruned("web", "eu-1", new ObjectRef("", "ConfigMap", "web", "old"),
                        new ActionReason.Removed(ActionReason.Leave.FromGit, null, false))), SHA, List.of("web"),
                new CommitWriter("windlass-1_9f8e7d6c", new java.util.TreeSet<>(List.of(2, 0))));
        assertEquals("""
                windlass: web 1d7b01005e22 on eu-1: 1 configured (+2 more)

                - web 1d7b01005e22 on eu-1: 1 configured
                - web 1d7b01005e22 on eu-2: 1 configured
                - web on eu-1: pruned ConfigMap web/old (removed from Git)

                Windlass-Source: 04b5e240090f9b526df41efbaec25bafe4a4d5d3
                Windlass-Event: Sync
                Windlass-Event: Prune
                Windlass-Replica: windlass-1_9f8e7d6c
                Windlass-Shards: 0,2
                """, m);
    }

    @Test
    void withoutEventsTheSubjectNamesWhatChanged() {
        assertEquals("windlass: status of api, web updated", CommitMessage.of(List.of(), SHA, List.of("api", "web"), ALONE).lines().findFirst().orElseThrow());
        assertEquals("windlass: reconciled 04b5e24", CommitMessage.of(List.of(), SHA, List.of(), ALONE).lines().findFirst().orElseThrow());
    }

    @Test
    void everyMessageNamesAnEventEvenWithoutEvents() {
        assertEquals("""
                windlass: status of cp updated

                Windlass-Source: 04b5e240090f9b526df41efbaec25bafe4a4d5d3
                Windlass-Event: Health
                Windlass-Replica: engine-0_1a2b3c4d
                Windlass-Shards: unsharded
                """, CommitMessage.of(List.of(), SHA, List.of("cp"), ALONE), "what was observed: a cluster's nodes, a new cluster, a clock");
    }

    @Test
    void manyAppsWithoutEventsAreCountedInTheSubjectAndKeepItShort() {
        List<String> apps = java.util.stream.IntStream.range(0, 50).mapToObj(i -> String.format("app-%04d", i)).toList();
        String subject = CommitMessage.of(List.of(), SHA, apps, ALONE).lines().findFirst().orElseThrow();
        assertEquals("windlass: status of app-0000, app-0001, app-0002, app-0003, app-0004, app-0005 (+44 more) updated", subject);
        org.junit.jupiter.api.Assertions.assertTrue(subject.length() <= CommitMessage.SUBJECT_MAX, subject);
    }
}
