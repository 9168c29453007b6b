package dev.windlass.policy.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.VerifySettings;
import dev.windlass.policy.model.VerifySettings.Mode;
import java.util.List;
import org.junit.jupiter.api.Test;

class VerifySettingsParseTest {
    static final String SINCE = "0123456789abcdef0123456789abcdef01234567";

    @Test void withoutTheFieldNothingIsRequiredOfTheRepo() {
        assertEquals(VerifySettings.NONE, ReviewSettingsParseTest.parse("interval: 30s\n").settings().verify());
    }

    @Test void tipAndAllSinceWithACommitAreRead() {
        assertEquals(new VerifySettings(Mode.Tip, null), ReviewSettingsParseTest.parse("verify: {mode: Tip}\n").settings().verify());
        DesiredState all = ReviewSettingsParseTest.parse("verify:\n  mode: AllSince\n  since: " + SINCE + "\n");
        assertEquals(List.of(), ReviewSettingsParseTest.errors(all));
        assertEquals(new VerifySettings(Mode.AllSince, SINCE), all.settings().verify());
    }

    @Test void anUnknownModeIsAnErrorSayingTheWords() {
        DesiredState s = ReviewSettingsParseTest.parse("verify: {mode: Always}\n");
        assertEquals(List.of("windlass.yaml:5:18: Settings.spec.verify.mode is 'Always'; use one of Off, Tip, AllSince"),
                ReviewSettingsParseTest.errors(s));
    }

    @Test void aShortOrNamedSinceIsAnErrorAskingForTheFullId() {
        DesiredState s = ReviewSettingsParseTest.parse("verify: {mode: AllSince, since: main}\n");
        assertEquals(List.of("windlass.yaml:5:35: Settings.spec.verify.since is 'main'; give the full commit id (git rev-parse COMMIT prints it)"),
                ReviewSettingsParseTest.errors(s));
        assertEquals(new VerifySettings(Mode.AllSince, null), s.settings().verify());
    }

    @Test void aMissingModeOrAnUnknownFieldIsAnError() {
        assertEquals(1, ReviewSettingsParseTest.errors(ReviewSettingsParseTest.parse("verify: {since: " + SINCE + "}\n")).size());
        assertEquals(1, ReviewSettingsParseTest.errors(ReviewSettingsParseTest.parse("verify: {mode: Tip, keys: /etc/keys}\n")).size());
    }

    @Test void theStricterModeWins() {
        assertEquals(Mode.AllSince, Mode.Tip.atLeast(Mode.AllSince));
        assertEquals(Mode.AllSince, Mode.AllSince.atLeast(Mode.Off));
        assertEquals(Mode.Tip, Mode.Off.atLeast(Mode.Tip));
    }
}
