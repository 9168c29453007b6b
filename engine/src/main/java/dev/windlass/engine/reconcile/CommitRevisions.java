package dev.windlass.engine.reconcile;

import dev.windlass.git.Mirror;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.plan.Revisions;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Earlier revisions read back from the config repo's history, for rollbacks. A few parsed commits are kept. */
public final class CommitRevisions implements Revisions {
    private static final Logger log = LoggerFactory.getLogger(CommitRevisions.class);
    private static final int KEEP = 8;

    private final Mirror mirror;
    private final Map<String, DesiredState> parsed = new LinkedHashMap<>(16, 0.75f, true) {
        @Override protected boolean removeEldestEntry(Map.Entry<String, DesiredState> e) { return size() > KEEP; }
    };

    public CommitRevisions(Mirror mirror) { this.mirror = mirror; }

    @Override public synchronized Application find(String app, String revision, String source) {
        if (source == null || source.isEmpty()) return null;
        DesiredState d = parsed.get(source);
        if (d == null) {
            try {
                d = dev.windlass.engine.render.AppRendering.shared().read(mirror.snapshot(source));
            } catch (IOException | RuntimeException e) {
                log.warn("cannot read revision {} of {} from commit {}: {}", revision, app, source, e.getMessage());
                return null;
            }
            parsed.put(source, d);
        }
        Application a = d.apps().get(app);
        return a != null && a.revision().equals(revision) && a.valid() ? a : null;
    }
}
