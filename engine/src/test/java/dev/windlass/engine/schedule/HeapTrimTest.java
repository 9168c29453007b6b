package dev.windlass.engine.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** When the old generation is worth a full collection between passes. */
class HeapTrimTest {

    static final long MIB = 1L << 20;

    @Test void aSmallFleetsFewMibibytesOfPromotionsAreLeftToTheCollector() {
        assertFalse(HeapTrim.due(20 * MIB, 0));
        assertFalse(HeapTrim.due(40 * MIB, 20 * MIB));
        assertTrue(HeapTrim.due(45 * MIB, 20 * MIB));
    }

    /** At 1,000 apps about 75 MiB of the old generation is live: a whole pass's 30 MiB of promotions is collected. */
    @Test void aLargeFleetIsCollectedOnceAPassLeftAQuarterMoreThanWasLive() {
        assertFalse(HeapTrim.due(90 * MIB, 75 * MIB));
        assertTrue(HeapTrim.due(105 * MIB, 75 * MIB));
        assertFalse(HeapTrim.due(480 * MIB, 400 * MIB));
        assertTrue(HeapTrim.due(501 * MIB, 400 * MIB));
    }

    /** The pool's threshold, which the JVM checks after each young collection inside a pass, is the same mark. */
    @Test void theMarkAPassCrossesIsWhereACollectionBetweenPassesWouldBeDue() {
        assertEquals(24 * MIB, HeapTrim.mark(0));
        assertEquals(100 * MIB, HeapTrim.mark(76 * MIB));
        assertEquals(500 * MIB, HeapTrim.mark(400 * MIB));
        assertFalse(HeapTrim.due(HeapTrim.mark(76 * MIB), 76 * MIB));
        assertTrue(HeapTrim.due(HeapTrim.mark(76 * MIB) + 1, 76 * MIB));
    }

    @Test void anOldGenerationSmallerThanAfterItsLastCollectionIsNotCollected() {
        assertFalse(HeapTrim.due(60 * MIB, 75 * MIB));
    }
}
