package dev.windlass.engine.status;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.alerts.Delivery;
import dev.windlass.engine.alerts.Outbox;
import dev.windlass.policy.alert.AlertEvent;
import dev.windlass.policy.alert.AlertKind;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code status/alerts.yaml}: written as people read it, read back as written, strict about words it does not know. */
class AlertsFileTest {
    static final Instant T = Instant.parse("2026-11-27T10:00:00Z");

    static Delivery delivery(String id, Delivery.State state) {
        AlertEvent e = new AlertEvent(id, AlertKind.WaveFailed, AlertKind.WaveFailed.severity(), "web", "eu-2", "r2", "c0ffee", 2, "TimedOut",
                "failed on eu-2", T);
        Delivery d = Delivery.pending(e, "hook", "feedface");
        return state == Delivery.State.Pending ? d : d.finished(state, 3, state == Delivery.State.Failed ? "answered 404" : "", T.plusSeconds(5));
    }

    @Test
    void deliveriesRoundTrip() throws Exception {
        List<Delivery> all = List.of(delivery("a", Delivery.State.Delivered), delivery("b", Delivery.State.Failed), delivery("c", Delivery.State.Pending));
        byte[] file = StatusFiles.alertsFile(all);
        String text = new String(file, StandardCharsets.UTF_8);
        assertTrue(text.startsWith("apiVersion: windlass.dev/status/v1\ndeliveries:\n  - id: a\n    kind: WaveFailed\n    severity: error\n    application: web\n"), text);
        assertEquals(all, StatusFiles.readAlerts(file));
        assertArrayEquals(file, StatusFiles.alertsFile(StatusFiles.readAlerts(file)), "written back unchanged");
        assertEquals(List.of(), StatusFiles.readAlerts(null), "no file: no deliveries");
    }

    @Test
    void aRolloutEventKeepsItsClustersAndItsRolloutsCommit() throws Exception {
        AlertEvent e = new AlertEvent("w", AlertKind.WaveStarted, AlertKind.WaveStarted.severity(), "web", "", "r2", "c0ffee", 2, "",
                "on eu-2, us-1", T, List.of("eu-2", "us-1"), "beef01");
        List<Delivery> all = List.of(Delivery.pending(e, "deployments", "feedface"), delivery("a", Delivery.State.Pending));
        byte[] file = StatusFiles.alertsFile(all);
        String text = new String(file, StandardCharsets.UTF_8);
        assertTrue(text.contains("    clusters:\n      - eu-2\n      - us-1\n    rolloutSource: beef01\n"), text);
        assertEquals(all, StatusFiles.readAlerts(file));
        assertEquals(1, text.split("clusters:", -1).length - 1, "written for rollout events only");
    }

    @Test
    void aWordThisEngineDoesNotKnowIsRefused() {
        String text = new String(StatusFiles.alertsFile(List.of(delivery("a", Delivery.State.Pending))), StandardCharsets.UTF_8);
        UncheckedIOException e = assertThrows(UncheckedIOException.class,
                () -> StatusFiles.readAlerts(text.replace("state: Pending", "state: Queued").getBytes(StandardCharsets.UTF_8)));
        assertTrue(e.getMessage().contains("state: 'Queued' is not one of Pending, Delivered, Failed"), e.getMessage());
        StatusFiles.UnsupportedStatusVersion newer = assertThrows(StatusFiles.UnsupportedStatusVersion.class,
                () -> StatusFiles.readAlerts(text.replace("    provider: hook", "    provider: hook\n    channel: ops").getBytes(StandardCharsets.UTF_8)));
        assertTrue(newer.getMessage().startsWith("status/alerts.yaml: deliveries[0].channel is not a field of status format windlass.dev/status/v1"),
                newer.getMessage());
    }

    @Test
    void theOutboxKeepsEveryPendingDeliveryAndTheNewestFinishedOnes() {
        List<Delivery> many = new ArrayList<>();
        many.add(delivery("pending-first", Delivery.State.Pending));
        for (int i = 0; i < Outbox.FINISHED_KEPT + 10; i++) many.add(delivery("done-" + i, Delivery.State.Delivered));
        Outbox o = new Outbox(many);
        assertEquals(Outbox.FINISHED_KEPT + 1, o.all().size());
        assertEquals("pending-first", o.all().get(0).event().id());
        assertEquals("done-10", o.all().get(1).event().id(), "the oldest finished ones go first");
        Outbox done = o.applying(List.of(delivery("pending-first", Delivery.State.Delivered)));
        assertEquals(List.of(), done.pending());
        assertEquals(o, o.adding(List.of(delivery("done-20", Delivery.State.Pending))), "an event is recorded once");
    }
}
