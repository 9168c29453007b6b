package dev.windlass.policy.failover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StatePathTest {
    static final Map<String, Object> BODY = Map.of(
            "metadata", Map.of("name", "ingest", "annotations", Map.of("stream.example.com/checkpoint", "48213")),
            "status", Map.of("offset", 4711, "conditions", List.of(Map.of("type", "Ready", "status", "True"), Map.of("type", "Synced", "status", "False"))));

    static StatePath.Read read(String path) { return StatePath.compile(path).read(BODY); }

    @Test
    void readsOneValueWrittenTheWayKubectlWritesPaths() {
        assertEquals("4711", read("{ .status.offset }").value());
        assertEquals("4711", read("{.status.offset}").value());
        assertEquals("48213", read("{ .metadata.annotations['stream.example.com/checkpoint'] }").value());
        assertEquals("False", read("{ .status.conditions[?(@.type==\"Synced\")].status }").value());
    }

    @Test
    void aPathThatMatchesNothingOrTooMuchIsReportedNotFilledIn() {
        assertEquals(new StatePath.Read(null, "{ .status.epoch } matched nothing"), read("{ .status.epoch }"));
        assertEquals(new StatePath.Read(null, "{ .status.conditions[*].type } matched 2 values; a preserved value must be one"),
                read("{ .status.conditions[*].type }"));
        assertEquals(new StatePath.Read(null, "{ .metadata.annotations } matched an object, not a value"), read("{ .metadata.annotations }"));
    }

    @Test
    void aMalformedPathIsAnErrorWithTheFix() {
        assertEquals("'.status.offset' is not a JSONPath template; write it in braces, e.g. \"{ .status.offset }\"",
                assertThrows(IllegalArgumentException.class, () -> StatePath.compile(".status.offset")).getMessage());
        assertEquals("'{ status.offset }' must start with '.' or '[' inside the braces, e.g. \"{ .status.offset }\"",
                assertThrows(IllegalArgumentException.class, () -> StatePath.compile("{ status.offset }")).getMessage());
    }
}
