package dev.windlass.policy.diff;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class QuantityTest {

    @Test void theSameAmountWrittenTwoWaysIsTheSame() {
        assertTrue(Quantity.sameQuantity("2000m", "2"));
        assertTrue(Quantity.sameQuantity("1Gi", "1024Mi"));
        assertTrue(Quantity.sameQuantity("1e3", "1k"));
        assertTrue(Quantity.sameQuantity(2, "2"));
        assertTrue(Quantity.sameQuantity("0.5", "500m"));
    }

    @Test void differentAmountsAndNonQuantitiesAreNot() {
        assertFalse(Quantity.sameQuantity("1G", "1Gi"));
        assertFalse(Quantity.sameQuantity("100m", "1"));
        assertFalse(Quantity.sameQuantity("abc", "abc"), "text that is no quantity is compared as text elsewhere");
        assertNull(Quantity.parse("1Xi"));
        assertNull(Quantity.parse(""));
        assertNull(Quantity.parse(java.util.List.of("1")));
    }
}
