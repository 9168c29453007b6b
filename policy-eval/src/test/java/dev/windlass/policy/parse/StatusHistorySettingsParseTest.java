package dev.windlass.policy.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Settings;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatusHistorySettingsParseTest {

    @Test void statusHistoryIsBoundedByDefault() {
        DesiredState s = ReviewSettingsParseTest.parse("interval: 30s\n");
        assertEquals(1_000, s.settings().statusHistoryLimit());
        assertEquals(Settings.DEFAULT.statusHistoryLimit(), s.settings().statusHistoryLimit());
    }

    @Test void aLimitOrZeroForAllIsRead() {
        assertEquals(500, ReviewSettingsParseTest.parse("statusHistoryLimit: 500\n").settings().statusHistoryLimit());
        assertEquals(0, ReviewSettingsParseTest.parse("statusHistoryLimit: 0\n").settings().statusHistoryLimit());
    }

    @Test void aNegativeOrTextLimitIsAnErrorAndKeepsTheDefault() {
        DesiredState negative = ReviewSettingsParseTest.parse("statusHistoryLimit: -1\n");
        assertEquals(List.of("windlass.yaml:5:23: Settings.spec.statusHistoryLimit must be a whole number of at least 0"),
                ReviewSettingsParseTest.errors(negative));
        assertEquals(1_000, negative.settings().statusHistoryLimit());
        DesiredState text = ReviewSettingsParseTest.parse("statusHistoryLimit: lots\n");
        assertEquals(1, ReviewSettingsParseTest.errors(text).size());
        assertEquals(1_000, text.settings().statusHistoryLimit());
    }
}
