package dev.windlass.engine.status;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import dev.windlass.engine.status.v1.AppStatusV1;
import dev.windlass.engine.status.v1.ClusterStatusV1;
import dev.windlass.engine.status.v1.FleetV1;
import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.state.ClusterStatus;
import dev.windlass.policy.state.EngineState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The layout of the status branch: {@code status/fleet.yaml} (one line per app and cluster),
 * {@code status/apps/<app>.yaml}, {@code status/clusters/<name>.yaml}, {@code plans/<ref>.md}.
 * Rendering is deterministic, so an unchanged state gives an unchanged tree and no commit.
 *
 * <p>Every status file starts with {@code apiVersion: }{@value #API_VERSION}, the format it is written in, and holds
 * one of that format's records ({@code dev.windlass.engine.status.v1}): the domain is mapped to them to be written and
 * from them once read, so a change to the domain's records never changes a file. A file without a version was written
 * before the format had one, in the same format. A field the format does not have is refused, not dropped: it was
 * written by an engine that knows more, and dropping it would lose what that engine recorded. A file in a version this engine does not
 * know (a newer engine wrote it) is refused with a message saying so, never read by guessing: an engine that misread
 * where a rollout or a failover stood could undo it. The upgrade contract (StatusUpgradeContractTest) reads a status
 * branch written by an earlier engine and writes it back unchanged.
 */
public final class StatusFiles {
    /** The format of the status files this engine reads and writes. */
    public static final String API_VERSION = "windlass.dev/status/v1";
    public static final String FLEET = "status/fleet.yaml";
    public static final String APPS = "status/apps/";
    public static final String CLUSTERS = "status/clusters/";
    /** The signature check of the config branch, when one is in force ({@code VerificationV1}). */
    public static final String VERIFICATION = "status/verification.yaml";
    /** The alert deliveries: pending ones and the newest finished ones ({@code dev.windlass.engine.alerts.Outbox}). */
    public static final String ALERTS = "status/alerts.yaml";
    /** The revert pull requests offered for failed rollouts ({@code RevertsV1}), written by the coordinator. */
    public static final String REVERTS = "status/reverts.yaml";
    /** With shards, one outbox per shard, written by its holder. */
    public static final String SHARD_ALERTS = "status/alerts/";

    /** The outbox of shard {@code n}. */
    public static String alertsOfShard(int n) { return SHARD_ALERTS + "shard-" + n + ".yaml"; }

    /** Whether {@code path} is an outbox of alert deliveries. */
    public static boolean isAlerts(String path) {
        return path.equals(ALERTS) || path.startsWith(SHARD_ALERTS) && path.matches("status/alerts/shard-[0-9]+\\.yaml");
    }

    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.INDENT_ARRAYS_WITH_INDICATOR)
            .disable(YAMLGenerator.Feature.SPLIT_LINES))
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
            // A record is written as its components: a derived isX() (FailoverMemory.isEmpty) is not a field.
            .setVisibility(PropertyAccessor.IS_GETTER, JsonAutoDetect.Visibility.NONE)
            // Absent rather than "null": status files are read by people.
            .setSerializationInclusion(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
            // The model's times (Instant) are ISO-8601 text in the files, as Instant.toString() writes and Instant.parse reads.
            .registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

    private StatusFiles() {}

    /** Every file that represents {@code state}, by path, each with the format's version first. */
    public static SortedMap<String, byte[]> render(EngineState state) {
        SortedMap<String, byte[]> files = new TreeMap<>();
        contents(state).forEach((path, value) -> files.put(path, file(value)));
        return files;
    }

    /** The bytes of one status file holding {@code value}: an AppStatus, a ClusterStatus or the fleet summary. */
    static byte[] file(Object value) {
        Object written;
        if (value instanceof AppStatus a) written = AppStatusV1.of(a);
        else if (value instanceof ClusterStatus c) written = ClusterStatusV1.of(c);
        else if (value instanceof FleetV1 f) written = f;
        else throw new IllegalArgumentException("not a status file: " + value.getClass().getName());
        return yaml(versioned(written));
    }

    /** How status files are read: a field the format does not have is an error. */
    private static final ObjectMapper STRICT = YAML.copy().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private static Map<String, Object> versioned(Object value) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("apiVersion", API_VERSION);
        @SuppressWarnings("unchecked")
        Map<String, Object> fields = value instanceof Map<?, ?> m ? (Map<String, Object>) m : YAML.convertValue(value, Map.class);
        out.putAll(fields);
        return out;
    }

    /** A status file's fields, once its version is one this engine reads. */
    private static Map<String, Object> unversioned(String path, byte[] content) throws IOException {
        @SuppressWarnings("unchecked")
        Map<String, Object> fields = YAML.readValue(content, LinkedHashMap.class);
        if (fields == null) fields = new LinkedHashMap<>();
        Object version = fields.remove("apiVersion");
        if (version != null && !API_VERSION.equals(version)) {
            throw new UnsupportedStatusVersion(path + " is in status format " + version + ", which this engine (" + API_VERSION
                    + ") does not know: it was written by a newer Windlass. Run that version, or give this one a status branch of its own"
                    + " (--status-branch); nothing was read or written");
        }
        return fields;
    }

    /** The record of the format a file's fields make; a field the format does not have is refused by name. */
    private static <T> T as(String path, Map<String, Object> fields, Class<T> type) throws UnsupportedStatusVersion {
        try {
            return STRICT.convertValue(fields, type);
        } catch (IllegalArgumentException e) {
            if (e.getCause() instanceof com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException unknown) {
                String at = unknown.getPath().stream().map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
                        .collect(java.util.stream.Collectors.joining(".")).replace(".[", "[");
                throw new UnsupportedStatusVersion(path + ": " + at + " is not a field of status format " + API_VERSION
                        + ": it was written by a Windlass that knows more than this one (" + API_VERSION + "). Run that version, or give"
                        + " this one a status branch of its own (--status-branch); nothing was read or written");
            }
            throw e;
        }
    }

    /** A status file in a format this engine does not know. */
    public static final class UnsupportedStatusVersion extends IOException {
        UnsupportedStatusVersion(String message) { super(message); }
    }

    /** What each file holds, by path, before it is written as YAML: an AppStatus, a ClusterStatus, the fleet summary. */
    static SortedMap<String, Object> contents(EngineState state) {
        SortedMap<String, Object> files = new TreeMap<>();
        files.put(FLEET, FleetV1.of(state));
        state.apps().forEach((name, app) -> files.put(APPS + name + ".yaml", app));
        state.clusters().forEach((name, c) -> files.put(CLUSTERS + name + ".yaml", c));
        return files;
    }

    /**
     * Reads state back from the files under {@code status/}; unknown files are skipped. A file in an unknown format
     * version is refused ({@link UnsupportedStatusVersion}), and so is one that cannot be read.
     */
    public static EngineState read(Map<String, byte[]> files) throws UnsupportedStatusVersion {
        Map<String, AppStatus> apps = new TreeMap<>();
        Map<String, ClusterStatus> clusters = new TreeMap<>();
        String source = null;
        java.util.Set<String> policyFiles = new java.util.TreeSet<>();
        for (var e : files.entrySet()) {
            String path = e.getKey();
            boolean known = path.equals(FLEET) || (path.startsWith(APPS) || path.startsWith(CLUSTERS)) && path.endsWith(".yaml");
            if (!known) continue;
            try {
                Map<String, Object> fields = unversioned(path, e.getValue());
                if (path.startsWith(APPS)) {
                    AppStatus a = as(path, fields, AppStatusV1.class).toDomain();
                    apps.put(a.name(), a);
                } else if (path.startsWith(CLUSTERS)) {
                    ClusterStatus c = as(path, fields, ClusterStatusV1.class).toDomain();
                    clusters.put(c.name(), c);
                } else {
                    FleetV1 fleet = as(path, fields, FleetV1.class);
                    source = fleet.source();
                    if (fleet.policyFiles() != null) policyFiles.addAll(fleet.policyFiles());
                }
            } catch (UnsupportedStatusVersion refused) {
                throw refused;
            } catch (IOException | IllegalArgumentException ex) {
                throw new UncheckedIOException("status file " + path + " cannot be read: " + ex.getMessage(),
                        ex instanceof IOException io ? io : new IOException(ex));
            }
        }
        return EngineState.of(source, apps, clusters, policyFiles);
    }

    /** The file recording {@code verification} of {@code branch}. */
    public static byte[] verification(String branch, dev.windlass.policy.source.Verification verification) {
        return yaml(versioned(dev.windlass.engine.status.v1.VerificationV1.of(branch, verification)));
    }

    /**
     * The recorded signature check, or null when none is recorded. A file that cannot be read, or names a mode or an
     * outcome this engine does not know, is refused: the engine must not guess which revision it may apply.
     */
    public static dev.windlass.policy.source.Verification readVerification(Map<String, byte[]> files) throws IOException {
        byte[] content = files.get(VERIFICATION);
        if (content == null) return null;
        try {
            return as(VERIFICATION, unversioned(VERIFICATION, content), dev.windlass.engine.status.v1.VerificationV1.class).toDomain();
        } catch (UnsupportedStatusVersion refused) {
            throw refused;
        } catch (IOException | IllegalArgumentException e) {
            throw new IOException("status file " + VERIFICATION + " cannot be read: " + e.getMessage()
                    + "; nothing is applied until it is fixed or deleted (the engine then checks the tip afresh)", e);
        }
    }

    /** The bytes of {@code status/alerts.yaml} holding {@code deliveries}, oldest first. */
    public static byte[] alertsFile(java.util.List<dev.windlass.engine.alerts.Delivery> deliveries) {
        return yaml(versioned(new dev.windlass.engine.status.v1.AlertsV1(deliveries.stream().map(dev.windlass.engine.status.v1.AlertDeliveryV1::of).toList())));
    }

    /** The deliveries {@code status/alerts.yaml} holds; none when there is no such file. Read as strictly as every status file. */
    public static java.util.List<dev.windlass.engine.alerts.Delivery> readAlerts(byte[] content) throws UnsupportedStatusVersion {
        return readAlerts(ALERTS, content);
    }

    /** The deliveries the outbox at {@code path} holds. */
    public static java.util.List<dev.windlass.engine.alerts.Delivery> readAlerts(String path, byte[] content) throws UnsupportedStatusVersion {
        if (content == null) return java.util.List.of();
        try {
            return as(path, unversioned(path, content), dev.windlass.engine.status.v1.AlertsV1.class).deliveries().stream()
                    .map(dev.windlass.engine.status.v1.AlertDeliveryV1::toDomain).toList();
        } catch (UnsupportedStatusVersion refused) {
            throw refused;
        } catch (IOException | IllegalArgumentException ex) {
            throw new UncheckedIOException("status file " + path + " cannot be read: " + ex.getMessage(),
                    ex instanceof IOException io ? io : new IOException(ex));
        }
    }

    /** The bytes of {@code status/reverts.yaml} holding {@code records}, oldest first. */
    public static byte[] revertsFile(java.util.List<dev.windlass.policy.revert.RevertRecord> records) {
        return yaml(versioned(dev.windlass.engine.status.v1.RevertsV1.of(records)));
    }

    /** The revert pull requests {@code status/reverts.yaml} records; none when there is no such file. Read strictly. */
    public static java.util.List<dev.windlass.policy.revert.RevertRecord> readReverts(byte[] content) throws UnsupportedStatusVersion {
        if (content == null) return java.util.List.of();
        try {
            return as(REVERTS, unversioned(REVERTS, content), dev.windlass.engine.status.v1.RevertsV1.class).toDomain();
        } catch (UnsupportedStatusVersion refused) {
            throw refused;
        } catch (IOException | IllegalArgumentException ex) {
            throw new UncheckedIOException("status file " + REVERTS + " cannot be read: " + ex.getMessage(),
                    ex instanceof IOException io ? io : new IOException(ex));
        }
    }

    /** {@code value} as YAML, written as in the status files. */
    public static String yamlText(Object value) {
        return new String(yaml(value), StandardCharsets.UTF_8);
    }

    /** Reads one status file written by {@link #yaml}. */
    public static <T> T parse(byte[] yaml, Class<T> type) throws java.io.IOException {
        return YAML.readValue(yaml, type);
    }

    public static byte[] yaml(Object value) {
        try {
            return YAML.writeValueAsString(value).getBytes(StandardCharsets.UTF_8);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
