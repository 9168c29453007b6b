package dev.windlass.engine.status.v1;

import dev.windlass.policy.revert.RevertRecord;
import java.time.Instant;
import java.util.List;

/**
 * {@code status/reverts.yaml}: the revert pull requests offered for failed rollouts, oldest first, one per application and
 * revision. Words (state) are read back strictly: one this engine does not know is refused.
 */
public record RevertsV1(List<Entry> reverts) {
    public RevertsV1 {
        reverts = reverts == null ? List.of() : List.copyOf(reverts);
    }

    public static RevertsV1 of(List<RevertRecord> records) {
        return new RevertsV1(records.stream().map(Entry::of).toList());
    }

    public List<RevertRecord> toDomain() {
        return reverts.stream().map(Entry::toDomain).toList();
    }

    /** One offer. */
    public record Entry(String application, String revision, String goodRevision, String branch, String state, Long number, String url,
                        String reason, Instant at) {
        static Entry of(RevertRecord r) {
            return new Entry(r.app(), r.revision(), r.goodRevision(), r.branch(), Words.of(r.state()), r.number() == 0 ? null : r.number(),
                    r.url().isEmpty() ? null : r.url(), r.reason().isEmpty() ? null : r.reason(), r.at());
        }

        RevertRecord toDomain() {
            RevertRecord.State s = Words.read(RevertRecord.State.class, state, "state");
            if (application == null || revision == null || branch == null || s == null || at == null) {
                throw new IllegalArgumentException("a revert needs application, revision, branch, state and at");
            }
            return new RevertRecord(application, revision, goodRevision == null ? "" : goodRevision, branch, s, number == null ? 0 : number, url,
                    reason, at);
        }
    }
}
