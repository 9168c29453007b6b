package dev.windlass.engine.review;

import dev.windlass.engine.status.StatusFiles;
import dev.windlass.git.StatusRead;
import dev.windlass.git.StatusWriter;
import java.io.IOException;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Reads the review records on the status branch, by ref. A record that cannot be read is skipped, with a warning. */
final class ReviewRecords {
    private static final Logger log = LoggerFactory.getLogger(ReviewRecords.class);

    private ReviewRecords() {}

    /**
     * The review files at the status tip (records and their plans) as the pass's fetch brought it: what review changes
     * are computed against. Read without asking the remote again; a record another writer changed since makes the write
     * a conflict, and the review is planned again on the next pass.
     */
    static StatusRead readFiles(StatusWriter status) throws IOException {
        return status.readLocal(ReviewRecord.RECORDS, "plans/");
    }

    /** The records among {@code files} (see {@link #readFiles}). */
    static SortedMap<String, ReviewRecord> parse(Map<String, byte[]> files) {
        SortedMap<String, ReviewRecord> out = new TreeMap<>();
        for (Map.Entry<String, byte[]> e : files.entrySet()) {
            if (!e.getKey().startsWith(ReviewRecord.RECORDS) || !e.getKey().endsWith(".yaml")) continue;
            try {
                ReviewRecord r = StatusFiles.parse(e.getValue(), ReviewRecord.class);
                out.put(r.ref(), r);
            } catch (IOException | RuntimeException ex) {
                log.warn("{} on the status branch cannot be read, the review is planned again: {}", e.getKey(), ex.getMessage());
            }
        }
        return out;
    }
}
