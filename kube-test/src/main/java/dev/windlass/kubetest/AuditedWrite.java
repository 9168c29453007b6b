package dev.windlass.kubetest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One write the API server audited (its {@code ResponseComplete} event): who made it, to what, and how it was answered.
 *
 * @param user      the authenticated user
 * @param verb      the server's verb: {@code create update patch delete deletecollection}
 * @param resource  plural and lower case, like {@code configmaps}
 * @param namespace "" for cluster-scoped objects
 * @param name      the object's name ("" for a collection)
 * @param code      the HTTP status of the answer
 * @param body      the request's body as the server logged it (JSON), or null where only metadata is audited
 * @param at        when the server finished the request
 */
public record AuditedWrite(String user, String verb, String resource, String namespace, String name, int code, JsonNode body, Instant at) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Whether the server accepted it (2xx) and it was no dry run. */
    public boolean succeeded() { return code >= 200 && code < 300; }

    static List<AuditedWrite> read(Path log) {
        if (!Files.exists(log)) return List.of();
        List<AuditedWrite> out = new ArrayList<>();
        try {
            List<String> lines = Files.readAllLines(log);
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (line.isBlank()) continue;
                JsonNode e;
                try {
                    e = JSON.readTree(line);
                } catch (com.fasterxml.jackson.core.JsonProcessingException partial) {
                    if (i == lines.size() - 1) break;  // the server is still writing the last line
                    throw partial;
                }
                if (!"ResponseComplete".equals(e.path("stage").asText())) continue;
                JsonNode ref = e.path("objectRef");
                JsonNode body = e.get("requestObject");
                out.add(new AuditedWrite(e.path("user").path("username").asText(), e.path("verb").asText(), ref.path("resource").asText(),
                        ref.path("namespace").asText(""), ref.path("name").asText(""), e.path("responseStatus").path("code").asInt(),
                        body, Instant.parse(e.path("stageTimestamp").asText())));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the audit log " + log, e);
        }
        return out;
    }
}
