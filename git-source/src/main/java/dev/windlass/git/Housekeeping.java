package dev.windlass.git;

import java.io.File;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.eclipse.jgit.internal.storage.file.FileRepository;
import org.eclipse.jgit.internal.storage.file.GC;
import org.eclipse.jgit.lib.ConfigConstants;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.StoredConfig;
import org.eclipse.jgit.storage.pack.PackConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a long-running mirror's object store compact. Every fetch that brings something leaves a pack, and every status
 * commit leaves loose objects (one of 100 files or more, a pack: {@code BranchCommitter}); object lookups slow down as
 * packs pile up. Git's automatic GC is switched off for the mirror ({@link #disableAutomaticGc}): it runs on a thread of
 * its own, removes loose-object directories under concurrent inserts and keeps the packs it replaced for an hour.
 * Instead, once {@value #PACKS_BEFORE_COMPACTING} packs or {@value #LOOSE_OBJECTS_BEFORE_COMPACTING} loose objects have
 * piled up since the last time, {@link #compactIfDue} packs everything reachable into one pack on the caller's thread,
 * while no object is being written. It counts them only after something may have added some (a fetch that moved a ref,
 * or object work): a fetch with nothing new lists no directory.
 *
 * <p>Nothing a reader may still want is deleted at once: objects that no ref reaches (a pull request head that was
 * force-pushed away, a merge preview, status commits a history trim rewrote) are kept loose for
 * {@value #UNREACHABLE_KEPT_DAYS} day: far longer than any pass reads a snapshot, short enough that trims of a busy
 * status branch do not pile up files.
 */
final class Housekeeping {

    static final int PACKS_BEFORE_COMPACTING = 20;
    static final int LOOSE_OBJECTS_BEFORE_COMPACTING = 2_000;
    static final int UNREACHABLE_KEPT_DAYS = 1;

    private static final Logger LOG = LoggerFactory.getLogger(Housekeeping.class);

    private final Repository repository;
    private final Lock refs;
    private final ReentrantReadWriteLock objects = new ReentrantReadWriteLock();
    // What a compaction cannot remove (unreachable objects inside their grace period) must not trigger the next one.
    private Storage afterLast = new Storage(0, 0);
    private int compactions;
    private final java.util.function.LongSupplier fetched;
    private final java.util.concurrent.atomic.AtomicLong objectWork = new java.util.concurrent.atomic.AtomicLong();
    /** Fetches that brought objects, plus object work, when the storage was last counted; -1 before the first count. */
    private long countedAt = -1;

    /**
     * @param refs    held by every fetch; taken after {@link #writingObjects}'s lock, never before it
     * @param fetched how many fetches so far may have brought objects
     */
    Housekeeping(Repository repository, Lock refs, java.util.function.LongSupplier fetched) {
        this.repository = repository;
        this.refs = refs;
        this.fetched = fetched;
    }

    /** Work that writes objects or reads them for a push. */
    interface ObjectWork<T> {
        T run() throws IOException;
    }

    /**
     * Runs {@code work} (a status commit, a merge preview, a history trim) so that no compaction runs under it. Any
     * number may run at once. It may fetch: this lock is always taken before the fetches' one.
     */
    <T> T writingObjects(ObjectWork<T> work) throws IOException {
        Lock shared = objects.readLock();
        shared.lock();
        try {
            return work.run();
        } finally {
            objectWork.incrementAndGet();
            shared.unlock();
        }
    }

    /**
     * Turns off Git's automatic GC for this repository; {@link #compactIfDue} takes its place. Git still looks after every
     * fetch whether an automatic GC is due; not detached, it finds at once that none ever is, where detached it first
     * took a lock file in the mirror and handed the check to a thread of its own, on every fetch.
     */
    static boolean disableAutomaticGc(StoredConfig config) {
        boolean changed = config.getInt(ConfigConstants.CONFIG_GC_SECTION, ConfigConstants.CONFIG_KEY_AUTO, -1) != 0
                || config.getInt(ConfigConstants.CONFIG_GC_SECTION, ConfigConstants.CONFIG_KEY_AUTOPACKLIMIT, -1) != 0
                || config.getBoolean(ConfigConstants.CONFIG_GC_SECTION, ConfigConstants.CONFIG_KEY_AUTODETACH, true);
        config.setInt(ConfigConstants.CONFIG_GC_SECTION, null, ConfigConstants.CONFIG_KEY_AUTO, 0);
        config.setInt(ConfigConstants.CONFIG_GC_SECTION, null, ConfigConstants.CONFIG_KEY_AUTOPACKLIMIT, 0);
        config.setBoolean(ConfigConstants.CONFIG_GC_SECTION, null, ConfigConstants.CONFIG_KEY_AUTODETACH, false);
        return changed;
    }

    /** Packs and loose objects in the mirror now. */
    Storage storage() {
        File objectsDir = repository.getDirectory().toPath().resolve("objects").toFile();
        int loose = 0;
        String[] fanout = objectsDir.list();
        if (fanout != null) {
            for (String dir : fanout) {
                if (dir.length() != 2) continue;
                String[] entries = new File(objectsDir, dir).list();
                if (entries != null) loose += entries.length;
            }
        }
        String[] packs = new File(objectsDir, "pack").list((dir, name) -> name.endsWith(".pack"));
        return new Storage(packs == null ? 0 : packs.length, loose);
    }

    /** How many compactions this mirror made since it was opened. */
    synchronized int compactions() { return compactions; }

    /**
     * Compacts when enough piled up since the last compaction, keeping object writers and fetches out; true when it
     * did. A failed compaction is logged and waits for the next batch: the mirror stays correct, only slower.
     */
    synchronized boolean compactIfDue() {
        long activity = fetched.getAsLong() + objectWork.get();  // read before counting: what comes after is counted next time
        if (activity == countedAt) return false;
        countedAt = activity;
        Storage before = storage();
        boolean due = before.packs() - afterLast.packs() >= PACKS_BEFORE_COMPACTING
                || before.looseObjects() - afterLast.looseObjects() >= LOOSE_OBJECTS_BEFORE_COMPACTING;
        if (!due) return false;
        Instant start = Instant.now();
        Lock exclusive = objects.writeLock();
        exclusive.lock();
        refs.lock();
        try {
            GC gc = new GC((FileRepository) repository);
            PackConfig pack = new PackConfig(repository);
            pack.setBuildBitmaps(false);  // bitmaps speed up serving clones; nobody clones a mirror
            gc.setPackConfig(pack);
            gc.setPackExpire(Instant.now());  // the packs just replaced go now, their unreachable objects loose
            gc.setExpire(Instant.now().minus(Duration.ofDays(UNREACHABLE_KEPT_DAYS)));
            gc.gc().join();
            compactions++;
            afterLast = storage();
            LOG.info("compacted the mirror: {} packs and {} loose objects became {} and {} in {} ms", before.packs(),
                    before.looseObjects(), afterLast.packs(), afterLast.looseObjects(), Duration.between(start, Instant.now()).toMillis());
            return true;
        } catch (IOException | RuntimeException | java.text.ParseException
                 | org.eclipse.jgit.api.errors.GitAPIException e) {
            LOG.warn("could not compact the mirror in {} (it stays correct, only slower): {}", repository.getDirectory(), e.toString());
            afterLast = storage();
            return false;
        } finally {
            refs.unlock();
            exclusive.unlock();
        }
    }

    /** @param looseObjects loose objects, reachable or not */
    record Storage(int packs, int looseObjects) {}
}
