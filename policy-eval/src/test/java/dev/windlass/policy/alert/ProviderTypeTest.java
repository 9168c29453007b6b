package dev.windlass.policy.alert;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProviderTypeTest {
    static List<AlertKind> taken(ProviderType t) { return Arrays.stream(AlertKind.values()).filter(t::takes).toList(); }

    @Test
    void eachProviderTakesTheKindsItCanTell() {
        assertEquals(List.of(AlertKind.values()), taken(ProviderType.webhook));
        assertEquals(List.of(AlertKind.values()), taken(ProviderType.msteams));
        assertEquals(List.of(AlertKind.RolloutStarted, AlertKind.RolledBack, AlertKind.RolloutFailed, AlertKind.RolloutCompleted, AlertKind.ApplicationInvalid)
                .stream().sorted().toList(), taken(ProviderType.github));
        assertEquals(taken(ProviderType.github), taken(ProviderType.gitea));
        assertEquals(List.of(AlertKind.WaveStarted, AlertKind.WaveCompleted, AlertKind.WaveFailed, AlertKind.RolledBack), taken(ProviderType.githubdeployments));
    }
}
