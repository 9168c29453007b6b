package dev.windlass.git;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.eclipse.jgit.lib.RepositoryCache;
import org.eclipse.jgit.transport.URIish;
import org.eclipse.jgit.util.FS;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A ref's lock file left behind in an origin on this machine's file system, by a writer that stopped in the middle of
 * updating the ref (killed, or its machine lost): Git refuses every later update of that ref while the file is there,
 * so a status branch would take no more commits. Git holds a ref's lock for the moment of its update, milliseconds;
 * one older than {@link #STALE} belongs to no update still going on and is removed.
 *
 * <p>An origin reached over the network keeps its own locks, in its server's process; only a path (or {@code file:})
 * origin, whose refs this engine's process updates itself, can be left locked by a writer that died.
 */
final class StaleRefLock {

    private static final Logger LOG = LoggerFactory.getLogger(StaleRefLock.class);

    /** A ref lock this old was left behind: an update holds it for milliseconds. */
    static final Duration STALE = Duration.ofSeconds(30);

    private StaleRefLock() {}

    /**
     * Removes the lock of {@code ref} in the origin at {@code uri} when the origin is on this machine and the lock is
     * older than {@link #STALE}.
     */
    static void clear(URIish uri, String ref, Instant now) {
        Optional<Path> lock = lockFile(uri, ref);
        if (lock.isEmpty()) return;
        try {
            Duration age = Duration.between(Files.getLastModifiedTime(lock.get()).toInstant(), now);
            if (age.compareTo(STALE) < 0) return;
            Files.delete(lock.get());
            LOG.warn("removed {}: a lock on {} left {} s ago by a writer that stopped in the middle of updating it; "
                    + "Git refuses every update of the ref while it is there", lock.get(), ref, age.toSeconds());
        } catch (NoSuchFileException e) {
            // No lock, or its writer finished meanwhile.
        } catch (IOException e) {
            LOG.warn("could not remove the stale lock {} on {}: {}", lock.get(), ref, e.toString());
        }
    }

    /** Where {@code ref}'s lock would be, when the origin is a repository on this machine's file system. */
    private static Optional<Path> lockFile(URIish uri, String ref) {
        if (uri.getHost() != null || (uri.getScheme() != null && !"file".equals(uri.getScheme()))) return Optional.empty();
        File gitDir = RepositoryCache.FileKey.resolve(new File(uri.getPath()), FS.DETECTED);
        return gitDir == null ? Optional.empty() : Optional.of(gitDir.toPath().resolve(ref + ".lock"));
    }
}
