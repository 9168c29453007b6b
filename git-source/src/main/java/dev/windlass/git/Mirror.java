package dev.windlass.git;

import dev.windlass.policy.source.ChangeSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.StoredConfig;
import org.eclipse.jgit.lib.RepositoryCache.FileKey;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.transport.RefSpec;
import org.eclipse.jgit.util.FS;

/**
 * A bare local copy of the config repository's branches and pull request heads. Reads ({@link #snapshot},
 * {@link #changes}, {@link #resolve}, {@link #listBranches}, {@link #listPullHeads}, the ancestry queries and
 * {@link #previewMerge}, which only adds unreferenced objects) never touch the network and are safe from any number of
 * threads. Fetches (including those {@link StatusWriter} and {@link ConfigWriter} make) are serialized internally, so
 * {@link #fetch} may be called from any thread, but a directory must belong to one {@code Mirror} in one process.
 * Objects no ref reaches are kept for {@value Housekeeping#UNREACHABLE_KEPT_DAYS} day, so a snapshot stays readable
 * after later fetches move or delete its branch.
 *
 * <p>The engine commits its own status to a separate branch of the same remote. Polling must watch only the config
 * branch, via {@link FetchOutcome#changed(String)}: otherwise every status commit would trigger another reconcile
 * pass, which writes another status commit.
 */
public final class Mirror implements AutoCloseable {

    static final String REMOTE_NAME = "origin";
    static final String BRANCHES = "refs/heads/";
    static final String PULL_REQUESTS = "refs/pull/";
    static final List<RefSpec> FETCH_SPECS = List.of(
            new RefSpec("+refs/heads/*:refs/heads/*"),
            new RefSpec("+refs/pull/*/head:refs/pull/*/head"));

    private final Repository repository;
    private final GitRemote remote;
    private final MirrorReads reads;
    private final MergePreviews previews;
    private final RemoteSync sync;
    private final Housekeeping housekeeping;

    private Mirror(Repository repository, GitRemote remote) {
        this.repository = repository;
        this.remote = remote;
        this.reads = new MirrorReads(repository);
        this.sync = new RemoteSync(repository, remote);
        this.housekeeping = new Housekeeping(repository, sync.refLock(), sync::objectsFetched);
        this.previews = new MergePreviews(repository, housekeeping);
    }

    /** Opens the mirror in {@code directory}, creating an empty bare repository there first if needed. */
    public static Mirror open(Path directory, GitRemote remote) throws IOException {
        Repository repository = isRepository(directory) ? openExisting(directory) : create(directory);
        try {
            pointAt(repository, remote);
        } catch (IOException | RuntimeException e) {
            repository.close();
            throw e;
        }
        return new Mirror(repository, remote);
    }

    public GitRemote remote() { return remote; }

    /**
     * Brings every branch and pull request head up to date with the remote, pruning what it deleted. Then compacts
     * the mirror's objects if enough piled up since the last time (see {@link Housekeeping}).
     */
    public FetchOutcome fetch() throws IOException {
        FetchOutcome outcome = sync.fetchAll();
        housekeeping.compactIfDue();
        return outcome;
    }

    /** Connections this mirror opened to its remote so far (fetches, ref reads and pushes): one round trip or more each. */
    public long roundTrips() { return sync.roundTrips(); }

    /** Packs and loose objects in the mirror now, and how many compactions it made since it was opened. */
    public MirrorStorage storage() {
        Housekeeping.Storage storage = housekeeping.storage();
        return new MirrorStorage(storage.packs(), storage.looseObjects(), housekeeping.compactions());
    }

    /** The full commit id for a branch name ({@code main}), a full ref, or a short or full sha. */
    public Optional<String> resolve(String refOrSha) throws IOException {
        return reads.resolve(refOrSha);
    }

    /**
     * When {@code path} came into the history of {@code commitId}, as the number of commits up to and including the
     * oldest one reachable from it that changed that path: of two files, the one that came first has the smaller
     * number, even when both were pushed within one second. Null when no commit changed it, or the commit is not in the
     * mirror. Read only for the files two applications both declare an object in, so its walks of the history are rare.
     */
    public Long introduced(String commitId, String path) {
        try (org.eclipse.jgit.revwalk.RevWalk walk = new org.eclipse.jgit.revwalk.RevWalk(repository)) {
            walk.setTreeFilter(org.eclipse.jgit.treewalk.filter.AndTreeFilter.create(org.eclipse.jgit.treewalk.filter.PathFilter.create(path),
                    org.eclipse.jgit.treewalk.filter.TreeFilter.ANY_DIFF));
            walk.markStart(walk.parseCommit(ObjectId.fromString(commitId)));
            ObjectId oldest = null;
            for (org.eclipse.jgit.revwalk.RevCommit c : walk) oldest = c.getId();
            if (oldest == null) return null;
            // A walk of its own: the filtered walk rewrote the parents of the commits it parsed.
            try (org.eclipse.jgit.revwalk.RevWalk all = new org.eclipse.jgit.revwalk.RevWalk(repository)) {
                all.markStart(all.parseCommit(oldest));
                long depth = 0;
                for (org.eclipse.jgit.revwalk.RevCommit ignored : all) depth++;
                return depth;
            }
        } catch (IOException | IllegalArgumentException e) {
            return null;
        }
    }

    /** The files of a commit that is in the mirror. */
    public CommitSnapshot snapshot(String commitId) throws IOException {
        return reads.snapshot(commitId);
    }

    /** Paths whose content differs between two commits; {@code fromCommit} null means every file of {@code toCommit}. */
    public ChangeSet changes(String fromCommit, String toCommit) throws IOException {
        return reads.changes(fromCommit, toCommit);
    }

    /** Branch name (without {@code refs/heads/}) to commit id, as of the last fetch. */
    public SortedMap<String, String> listBranches() throws IOException {
        SortedMap<String, String> branches = new TreeMap<>();
        for (Ref ref : repository.getRefDatabase().getRefsByPrefix(Constants.R_HEADS)) {
            branches.put(ref.getName().substring(Constants.R_HEADS.length()), ref.getObjectId().name());
        }
        return branches;
    }

    /** Pull request number to head commit id ({@code refs/pull/N/head}), as of the last fetch. */
    public SortedMap<Integer, String> listPullHeads() throws IOException {
        return reads.listPullHeads();
    }

    /**
     * What merging {@code headCommit} (a reviewed branch or pull request head) into {@code baseCommit} would give,
     * computed in memory: nothing is checked out and no ref moves. Both are full commit ids already in the mirror.
     */
    public MergePreview previewMerge(String baseCommit, String headCommit) throws IOException {
        return previews.preview(baseCommit, headCommit);
    }

    /**
     * Whether the mirror holds {@code commit} (a full id). A commit no ref reaches any more, such as a merge preview
     * or a deleted pull request head, is kept for {@value Housekeeping#UNREACHABLE_KEPT_DAYS} day, not for ever.
     */
    public boolean has(String commit) throws IOException {
        return commit != null && ObjectId.isId(commit) && reads.commit(ObjectId.fromString(commit)).isPresent();
    }

    /** Whether {@code ancestor} is {@code commit} or one of its ancestors. Both are full commit ids. */
    public boolean isAncestor(String ancestor, String commit) throws IOException {
        return reads.isAncestor(ancestor, commit);
    }

    /**
     * Full ids of the commits reachable from {@code to} but not from {@code from} ({@code from} null means all of
     * {@code to}'s history), newest first by commit time, at most {@code limit} of them.
     */
    public List<String> commitsBetween(String from, String to, int limit) throws IOException {
        return reads.commitsBetween(from, to, limit);
    }

    /**
     * The commits of {@code ref} (a branch name or full ref, as fetched) that changed {@code path}, newest first by commit
     * time, at most {@code limit}, with their trailers; empty when there is no such ref.
     */
    public List<LoggedCommit> log(String ref, String path, int limit) throws IOException {
        return reads.log(ref, path, limit);
    }

    /** The id of a commit's root tree: two commits with the same tree have exactly the same files. */
    public String treeOf(String commit) throws IOException {
        return reads.treeOf(commit);
    }

    /**
     * Checks {@code commit}'s signature (a full id, in the mirror) against {@code trusted} only, with JGit's signature
     * verification; reads nothing from the remote.
     */
    public CommitCheck checkSignature(String commit, TrustedKeys trusted) throws IOException {
        return CommitSignatures.check(repository, commit, trusted);
    }

    /**
     * Points the local ref {@code refs/windlass/<name>} at {@code commit}, so that the commit stays in the mirror after a
     * force-push leaves no branch on it (fetches prune only {@code refs/heads/} and {@code refs/pull/}); null deletes it.
     */
    public void keep(String name, String commit) throws IOException {
        String ref = "refs/windlass/" + name;
        if (!Repository.isValidRefName(ref)) throw new IllegalArgumentException("not a valid ref name: " + ref);
        org.eclipse.jgit.lib.RefUpdate update = repository.updateRef(ref);
        update.setForceUpdate(true);
        org.eclipse.jgit.lib.RefUpdate.Result result;
        if (commit == null) {
            if (repository.exactRef(ref) == null) return;
            result = update.delete();
        } else {
            ObjectId id = ObjectId.fromString(commit);
            Ref current = repository.exactRef(ref);
            if (current != null && id.equals(current.getObjectId())) return;
            update.setNewObjectId(id);
            result = update.update();
        }
        switch (result) {
            case NEW, FORCED, FAST_FORWARD, NO_CHANGE -> { }
            default -> throw new IOException("could not set " + ref + ": " + result);
        }
    }

    @Override public void close() {
        sync.close();
        repository.close();
    }

    Repository repository() { return repository; }

    MirrorReads reads() { return reads; }

    RemoteSync sync() { return sync; }

    Housekeeping housekeeping() { return housekeeping; }

    /** {@code main} and {@code refs/heads/main} both name the branch; anything starting with refs/ is taken as is. */
    static String branchRef(String branch) {
        String ref = branch.startsWith(Constants.R_REFS) ? branch : Constants.R_HEADS + branch;
        if (!Repository.isValidRefName(ref)) throw new IllegalArgumentException("not a valid branch name: " + branch);
        return ref;
    }

    private static boolean isRepository(Path directory) {
        return Files.isDirectory(directory) && FileKey.isGitRepository(directory.toFile(), FS.DETECTED);
    }

    private static Repository openExisting(Path directory) throws IOException {
        return new FileRepositoryBuilder().setGitDir(directory.toFile()).setMustExist(true).build();
    }

    private static Repository create(Path directory) throws IOException {
        if (Files.isDirectory(directory)) {
            try (var entries = Files.list(directory)) {
                if (entries.findAny().isPresent()) {
                    throw new IOException(directory + " is neither empty nor a git repository");
                }
            }
        }
        try {
            return Git.init().setBare(true).setDirectory(directory.toFile()).call().getRepository();
        } catch (GitAPIException e) {
            throw new IOException("cannot create mirror in " + directory, e);
        }
    }

    /**
     * Records the remote in the config so that a person inspecting the mirror with git sees where it came from, and
     * turns off Git's automatic GC, which {@link Housekeeping} replaces.
     */
    private static void pointAt(Repository repository, GitRemote remote) throws IOException {
        StoredConfig config = repository.getConfig();
        List<String> specs = new ArrayList<>();
        FETCH_SPECS.forEach(spec -> specs.add(spec.toString()));
        boolean current = remote.url().equals(config.getString("remote", REMOTE_NAME, "url"))
                && specs.equals(List.of(config.getStringList("remote", REMOTE_NAME, "fetch")));
        config.setString("remote", REMOTE_NAME, "url", remote.url());
        config.setStringList("remote", REMOTE_NAME, "fetch", specs);
        boolean gcChanged = Housekeeping.disableAutomaticGc(config);
        if (!current || gcChanged) config.save();
    }
}
