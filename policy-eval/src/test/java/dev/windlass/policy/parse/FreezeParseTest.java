package dev.windlass.policy.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.RepoFiles;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.Freeze;
import dev.windlass.policy.model.LabelSelector;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class FreezeParseTest {
    static final String FREEZE = """
            apiVersion: windlass.dev/v1alpha1
            kind: Freeze
            metadata: {name: black-friday}
            spec:
              selector: {matchLabels: {tier: frontend}}
              applications: [cache]
              clusterSelector: {matchLabels: {region: eu}}
              clusterNames: [us-1]
              schedule: "0 0 18 ? * FRI"
              duration: 60h
              timeZone: Europe/Berlin
              reason: "Black Friday: no changes"
            """;

    /** The examples repo (web: frontend, api: backend, cache: data; clusters eu-1, eu-2, us-1) plus one file. */
    static DesiredState parse(String path, String text) {
        List<String> files = new ArrayList<>();
        var examples = RepoFiles.examples();
        examples.files().keySet().forEach(p -> {
            files.add(p);
            files.add(new String(examples.read(p), StandardCharsets.UTF_8));
        });
        files.add(path);
        files.add(text);
        return RepoParser.parse(RepoFiles.inline(files.toArray(String[]::new)));
    }

    static List<String> errors(DesiredState s) { return s.diagnostics().stream().filter(Diagnostic::isError).map(Object::toString).toList(); }

    static List<String> warnings(DesiredState s) {
        return s.diagnostics().stream().filter(d -> !d.isError()).map(Object::toString).toList();
    }

    static List<String> invalidApps(DesiredState s) {
        return s.apps().values().stream().filter(a -> !a.valid()).map(a -> a.name()).toList();
    }

    @Test
    void aFullFreezeIsReadWithEveryField() {
        DesiredState s = parse("freezes/black-friday.yaml", FREEZE);
        assertEquals(List.of(), s.diagnostics().stream().map(Object::toString).toList());
        Freeze f = s.freezes().get(0);
        assertEquals(new Freeze("black-friday", new LabelSelector(Map.of("tier", "frontend"), List.of()), List.of("cache"),
                new LabelSelector(Map.of("region", "eu"), List.of()), List.of("us-1"), "0 0 18 ? * FRI", Duration.ofHours(60),
                ZoneId.of("Europe/Berlin"), "Black Friday: no changes", f.location()), f);
        assertEquals("freezes/black-friday.yaml:1:1", f.location().toString());
        assertTrue(f.coversApp("web", Map.of("tier", "frontend")) && f.coversApp("cache", Map.of()) && !f.coversApp("api", Map.of("tier", "backend")));
        assertTrue(f.coversCluster("eu-2", Map.of("region", "eu")) && f.coversCluster("us-1", Map.of()) && !f.coversCluster("ap-1", Map.of()));
        assertEquals(List.of(), invalidApps(s), "a valid Freeze holds by its windows, not by making apps invalid");
    }

    @Test
    void withoutScheduleItHoldsEverythingUntilRemoved() {
        DesiredState s = parse("freezes/all.yaml", """
                apiVersion: windlass.dev/v1alpha1
                kind: Freeze
                metadata: {name: all}
                spec: {reason: incident 4711}
                """);
        assertEquals(List.of(), errors(s));
        Freeze f = s.freezes().get(0);
        assertNull(f.schedule());
        assertNull(f.duration());
        assertEquals(ZoneOffset.UTC, f.timeZone());
        assertNull(f.selector());
        assertEquals("incident 4711", f.reason());
        assertTrue(f.coversApp("anything", Map.of()) && f.coversCluster("anywhere", Map.of()));
    }

    static Stream<Arguments> mistakes() {
        return Stream.of(
                Arguments.of("schedule: \"0 0 18 * * FRI\"\n  duration: 1h", "freezes/f.yaml:5:13: Freeze.spec.schedule '0 0 18 * * FRI' is not a Quartz cron expression "
                        + "(Support for specifying both a day-of-week AND a day-of-month parameter is not implemented.); write seconds minutes hours "
                        + "day-of-month month day-of-week, with '?' in one of the day fields, e.g. \"0 0 18 ? * FRI\""),
                Arguments.of("schedule: \"0 0 25 ? * FRI\"\n  duration: 1h", "freezes/f.yaml:5:13: Freeze.spec.schedule '0 0 25 ? * FRI' is not a Quartz cron expression "
                        + "(Hour values must be between 0 and 23); write seconds minutes hours day-of-month month day-of-week, with '?' in one of the day fields, "
                        + "e.g. \"0 0 18 ? * FRI\""),
                Arguments.of("schedule: \"0 0 18 ? * FRI\"\n  duration: 0s", "freezes/f.yaml:6:13: Freeze.spec.duration is 0s; a window must stay open for longer than 0s"),
                Arguments.of("schedule: \"0 0 18 ? * FRI\"\n  duration: -2h", "freezes/f.yaml:6:13: Freeze.spec.duration '-2h' is negative; a window must stay open for longer than 0s"),
                Arguments.of("schedule: \"0 0 18 ? * FRI\"\n  duration: 2 days", "freezes/f.yaml:6:13: Freeze.spec.duration '2 days' is not a duration; write e.g. 90m, 60h or 1h30m"),
                Arguments.of("schedule: \"0 0 18 ? * FRI\"\n  duration: 60", "freezes/f.yaml:6:13: Freeze.spec.duration '60' is not a duration; write e.g. 90m, 60h or 1h30m"),
                Arguments.of("schedule: \"0 0 18 ? * FRI\"", "freezes/f.yaml:5:3: Freeze.spec.duration is required with a schedule: how long each window stays open, e.g. 60h"),
                Arguments.of("duration: 60h", "freezes/f.yaml:5:13: Freeze.spec.duration needs a schedule; without one the Freeze holds until its file is removed, "
                        + "so remove duration or add a schedule"),
                Arguments.of("schedule: \"0 0 18 ? * FRI\"\n  duration: 1h\n  timeZone: Europe/Berln", "freezes/f.yaml:7:13: Freeze.spec.timeZone 'Europe/Berln' is not a known "
                        + "time zone; use a name such as Europe/Berlin, America/New_York or UTC"),
                Arguments.of("timeZone: Europe/Berlin", "freezes/f.yaml:5:13: Freeze.spec.timeZone needs a schedule (it says in which zone the schedule's times are); "
                        + "remove it or add a schedule"),
                Arguments.of("schedule: \"0 0 18 ? * FRI\"\n  duration: 1h\n  until: monday", "freezes/f.yaml:7:3: unknown field 'until' in Freeze.spec; known fields: "
                        + "selector, applications, clusterSelector, clusterNames, schedule, duration, timeZone, reason"),
                Arguments.of("applications: web", "freezes/f.yaml:5:17: Freeze.spec.applications must be a list"));
    }

    @ParameterizedTest
    @MethodSource("mistakes")
    void aMistakeIsReportedWhereItIsAndTheFreezeIsNotUsed(String specLines, String expected) {
        DesiredState s = parse("freezes/f.yaml", """
                apiVersion: windlass.dev/v1alpha1
                kind: Freeze
                metadata: {name: f}
                spec:
                  %s
                """.formatted(specLines));
        List<String> errors = errors(s).stream().filter(e -> e.startsWith("freezes/")).toList();
        assertEquals(expected, errors.get(0), errors.toString());
        assertEquals(List.of(), s.freezes(), "never half-applied");
        assertEquals(List.of("api", "cache", "greeter", "shop", "web"), invalidApps(s), "it names no applications, so it may cover them all");
    }

    @Test
    void aBrokenFreezeHoldsTheApplicationsItMayCover() {
        DesiredState s = parse("freezes/black-friday.yaml", FREEZE.replace("duration: 60h", "duration: 60 hours"));
        assertEquals(List.of(
                "apps/cache/app.yaml:1:1: Application cache may be frozen by Freeze black-friday (freezes/black-friday.yaml:1:1), which has errors; nothing is applied until it is fixed",
                "apps/web/app.yaml:1:1: Application web may be frozen by Freeze black-friday (freezes/black-friday.yaml:1:1), which has errors; nothing is applied until it is fixed",
                "freezes/black-friday.yaml:10:13: Freeze.spec.duration '60 hours' is not a duration; write e.g. 90m, 60h or 1h30m"), errors(s));
        assertEquals(List.of("cache", "web"), invalidApps(s), "api is neither a frontend nor named");
        assertTrue(s.apps().get("web").diagnostics().stream().map(Diagnostic::message).anyMatch(m -> m.contains("Freeze black-friday")),
                "the app's own status says why it is held");
    }

    @Test
    void aFreezeWhoseSelectorCannotBeReadHoldsEveryApplication() {
        DesiredState s = parse("freezes/black-friday.yaml", FREEZE.replace("{matchLabels: {tier: frontend}}", "{matchLabels: {tier: [frontend]}}"));
        assertEquals(List.of("api", "cache", "greeter", "shop", "web"), invalidApps(s));
        assertTrue(errors(s).contains("freezes/black-friday.yaml:5:34: Freeze.spec.selector.matchLabels.tier must be a string; quote the value (\"...\")"),
                errors(s).toString());
        DesiredState noSpec = parse("freezes/x.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Freeze\nmetadata: {name: x}\n");
        assertEquals(List.of("api", "cache", "greeter", "shop", "web"), invalidApps(noSpec));
        assertTrue(errors(noSpec).contains("freezes/x.yaml:1:1: Freeze.spec is required: what it holds and when ('spec: {}' holds everything until the Freeze is removed)"),
                errors(noSpec).toString());
    }

    @Test
    void twoFreezesOfTheSameNameAreErrorsAtBothAndHoldWhatEitherCovers() {
        String second = FREEZE.replace("selector: {matchLabels: {tier: frontend}}", "selector: {matchLabels: {tier: backend}}")
                .replace("applications: [cache]", "applications: []");
        DesiredState s = parse("freezes/black-friday.yaml", FREEZE + "---\n" + second);
        assertEquals(List.of(
                "apps/api/app.yaml:1:1: Application api may be frozen by Freeze black-friday (freezes/black-friday.yaml:16:18), whose name is also "
                        + "defined at freezes/black-friday.yaml:3:18; nothing is applied until it is fixed",
                "apps/cache/app.yaml:1:1: Application cache may be frozen by Freeze black-friday (freezes/black-friday.yaml:3:18), whose name is also "
                        + "defined at freezes/black-friday.yaml:16:18; nothing is applied until it is fixed",
                "apps/web/app.yaml:1:1: Application web may be frozen by Freeze black-friday (freezes/black-friday.yaml:3:18), whose name is also "
                        + "defined at freezes/black-friday.yaml:16:18; nothing is applied until it is fixed",
                "freezes/black-friday.yaml:3:18: Freeze 'black-friday' is also defined at freezes/black-friday.yaml:16:18; a name may be defined once: rename or remove one (until then neither is used)",
                "freezes/black-friday.yaml:16:18: Freeze 'black-friday' is also defined at freezes/black-friday.yaml:3:18; a name may be defined once: rename or remove one (until then neither is used)"), errors(s));
        assertEquals(List.of(), s.freezes(), "neither is used");
    }

    @Test
    void namesNothingHasAreWarnedAbout() {
        DesiredState s = parse("freezes/f.yaml", """
                apiVersion: windlass.dev/v1alpha1
                kind: Freeze
                metadata: {name: f}
                spec:
                  applications: [web, webb]
                  clusterNames: [eu-9]
                """);
        assertEquals(List.of(), errors(s));
        assertEquals(List.of(
                "freezes/f.yaml:5:17: warning: Freeze f names application 'webb' in spec.applications, but no Application has that name; it holds nothing by that name",
                "freezes/f.yaml:6:17: warning: Freeze f names cluster 'eu-9' in spec.clusterNames, but no Cluster has that name; it holds nothing by that name"), warnings(s));
        assertEquals(1, s.freezes().size());
    }

    @Test
    void unknownKindsNameFreezeAmongTheKnownOnes() {
        DesiredState s = parse("policies/x.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Freez\nmetadata: {name: x}\nspec: {}\n");
        assertEquals(List.of("policies/x.yaml:1:1: unknown kind 'Freez' for windlass.dev/v1alpha1; known kinds: Settings, Cluster, Application, RolloutPolicy, FailoverPolicy, RemediationPolicy, Freeze, Provider, Alert"),
                errors(s));
        assertFalse(s.hasErrors() && s.freezes().size() > 0);
    }
}
