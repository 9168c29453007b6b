package dev.windlass.engine.alerts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.alert.ProviderType;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The workers: one provider's trouble stays its own, tries are bounded, and nothing is queued twice. */
class AlertDeliveryTest {
    static final DeliverySettings FAST = new DeliverySettings(Duration.ofMillis(300), Duration.ofMillis(50), Duration.ofMillis(100), 3, 100);

    static Delivery to(String provider, String id) {
        Delivery d = SenderTest.delivery(dev.windlass.policy.alert.AlertKind.WaveStarted);
        var e = d.event();
        return Delivery.pending(new dev.windlass.policy.alert.AlertEvent(id, e.kind(), e.severity(), e.app(), e.cluster(), e.revision(), e.source(), e.wave(),
                e.reason(), e.detail(), e.at()), provider, "plan");
    }

    static List<Delivery> await(AlertDelivery delivery, int n) throws InterruptedException {
        List<Delivery> done = new ArrayList<>();
        for (int i = 0; i < 200 && done.size() < n; i++) {
            done.addAll(delivery.drainFinished());
            Thread.sleep(50);
        }
        return done;
    }

    @Test
    void aHungProviderHoldsOnlyItsOwnQueueAndIsGivenUpAfterItsTries() throws Exception {
        try (Receiver hung = new Receiver("k"); Receiver fine = new Receiver("k");
             AlertDelivery delivery = new AlertDelivery(new Sender(FAST.timeout(), new Messages(null), SenderTest.LOCAL), FAST, Clock.systemUTC())) {
            hung.hang.set(true);
            delivery.use(Map.of("hung", SenderTest.endpoint(ProviderType.webhook, hung.address(), null, "k"),
                    "fine", SenderTest.endpoint(ProviderType.webhook, fine.address(), null, "k")));
            delivery.offer(List.of(to("hung", "h1"), to("hung", "h2"), to("fine", "f1"), to("fine", "f2")));
            delivery.offer(List.of(to("hung", "h1"), to("hung", "h2"), to("fine", "f1"), to("fine", "f2")));
            List<Delivery> done = await(delivery, 4);
            assertEquals(List.of("f1 Delivered", "f2 Delivered"), done.stream().filter(d -> d.provider().equals("fine"))
                    .map(d -> d.event().id() + " " + d.state()).toList(), "the other provider's deliveries went through, once each");
            List<Delivery> gaveUp = done.stream().filter(d -> d.provider().equals("hung")).toList();
            assertEquals(List.of("h1", "h2"), gaveUp.stream().map(d -> d.event().id()).toList(), "in the order recorded");
            for (Delivery d : gaveUp) {
                assertEquals(Delivery.State.Failed, d.state());
                assertEquals(3, d.attempts());
                assertTrue(d.error().startsWith("gave up after 3 tries: no answer"), d.error());
            }
            assertEquals(2, fine.accepted.size(), "offered twice, queued once");
            assertEquals(0, hung.accepted.size());
        }
    }

    @Test
    void aDeliveryToAProviderNoLongerDeclaredFails() throws Exception {
        try (AlertDelivery delivery = new AlertDelivery(new Sender(FAST.timeout(), new Messages(null), SenderTest.LOCAL), FAST, Clock.systemUTC())) {
            delivery.use(Map.of());
            delivery.offer(List.of(to("gone", "g1")));
            List<Delivery> done = await(delivery, 1);
            assertEquals(1, done.size());
            assertEquals(Delivery.State.Failed, done.get(0).state());
            assertEquals("provider gone is no longer declared or was refused", done.get(0).error());
        }
    }
}
