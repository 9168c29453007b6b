package dev.windlass.git;

import dev.windlass.policy.source.ChangeSet;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.jgit.errors.IncorrectObjectTypeException;
import org.eclipse.jgit.errors.MissingObjectException;
import org.eclipse.jgit.lib.AbbreviatedObjectId;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.FooterLine;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevSort;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.EmptyTreeIterator;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.filter.AndTreeFilter;
import org.eclipse.jgit.treewalk.filter.PathFilter;
import org.eclipse.jgit.treewalk.filter.TreeFilter;

/** The offline half of a {@link Mirror}: every method opens its own walkers, so any thread may call them. */
final class MirrorReads {

    private static final Pattern HEX = Pattern.compile("[0-9a-fA-F]{4,40}");
    private static final Pattern FULL_ID = Pattern.compile("[0-9a-fA-F]{40}");
    private static final String R_PULL = Constants.R_REFS + "pull/";

    private final Repository repository;

    MirrorReads(Repository repository) {
        this.repository = repository;
    }

    Optional<String> resolve(String refOrSha) throws IOException {
        if (refOrSha == null || refOrSha.isBlank()) return Optional.empty();
        // Refs first, like git: a branch named "cafe" is what the user meant, not an object starting with cafe.
        for (String name : candidateRefs(refOrSha.strip())) {
            Ref ref = Repository.isValidRefName(name) ? repository.exactRef(name) : null;
            if (ref != null) return commitOf(ref.getObjectId());
        }
        if (!HEX.matcher(refOrSha.strip()).matches()) return Optional.empty();
        try (ObjectReader reader = repository.newObjectReader()) {
            Set<String> commits = new TreeSet<>();
            for (ObjectId candidate : reader.resolve(AbbreviatedObjectId.fromString(refOrSha.strip()))) {
                commitOf(candidate).ifPresent(commits::add);
            }
            // An ambiguous prefix is "not found" rather than a guess.
            return commits.size() == 1 ? Optional.of(commits.iterator().next()) : Optional.empty();
        }
    }

    CommitSnapshot snapshot(String commitId) throws IOException {
        try (RevWalk walk = new RevWalk(repository)) {
            return new CommitSnapshot(repository, walk.parseCommit(ObjectId.fromString(commitId)));
        }
    }

    Optional<RevCommit> commit(ObjectId id) throws IOException {
        try (RevWalk walk = new RevWalk(repository)) {
            return Optional.of(walk.parseCommit(id));
        } catch (MissingObjectException | IncorrectObjectTypeException e) {
            return Optional.empty();
        }
    }

    ChangeSet changes(String fromCommit, String toCommit) throws IOException {
        Set<String> paths = new TreeSet<>();
        try (RevWalk revs = new RevWalk(repository); TreeWalk walk = new TreeWalk(repository)) {
            RevCommit to = revs.parseCommit(ObjectId.fromString(toCommit));
            if (fromCommit == null) {
                walk.addTree(new EmptyTreeIterator());
            } else {
                walk.addTree(revs.parseCommit(ObjectId.fromString(fromCommit)).getTree());
            }
            walk.addTree(to.getTree());
            walk.setRecursive(true);
            walk.setFilter(TreeFilter.ANY_DIFF);
            while (walk.next()) {
                // Compare what a snapshot would list, so a mode-only change or a symlink edit is not a change.
                if (!Objects.equals(CommitSnapshot.fileId(walk, 0), CommitSnapshot.fileId(walk, 1))) {
                    paths.add(walk.getPathString());
                }
            }
            return new ChangeSet(fromCommit, to.name(), paths);
        }
    }

    SortedMap<Integer, String> listPullHeads() throws IOException {
        SortedMap<Integer, String> heads = new TreeMap<>();
        for (Ref ref : repository.getRefDatabase().getRefsByPrefix(R_PULL)) {
            // refs/pull/N/merge and other host-specific refs under refs/pull/ are never fetched, but skip them anyway.
            Matcher m = FetchOutcome.PULL_HEAD.matcher(ref.getName());
            if (m.matches()) heads.put(Integer.parseInt(m.group(1)), ref.getObjectId().name());
        }
        return heads;
    }

    boolean isAncestor(String ancestor, String commit) throws IOException {
        try (RevWalk walk = new RevWalk(repository)) {
            RevCommit a = parseCommit(walk, ancestor, "ancestor");
            RevCommit c = parseCommit(walk, commit, "commit");
            return walk.isMergedInto(a, c);
        }
    }

    List<String> commitsBetween(String from, String to, int limit) throws IOException {
        if (limit < 0) throw new IllegalArgumentException("limit is negative: " + limit);
        List<String> commits = new ArrayList<>();
        try (RevWalk walk = new RevWalk(repository)) {
            walk.setRetainBody(false);
            // Commit time order streams, so the limit bounds the work; a topological sort would first walk all of
            // to's history. Only clock skew between committers can list a parent before its child.
            walk.sort(RevSort.COMMIT_TIME_DESC);
            walk.markStart(parseCommit(walk, to, "to"));
            if (from != null) walk.markUninteresting(parseCommit(walk, from, "from"));
            RevCommit commit;
            while (commits.size() < limit && (commit = walk.next()) != null) commits.add(commit.name());
        }
        return commits;
    }

    List<LoggedCommit> log(String ref, String path, int limit) throws IOException {
        if (limit < 0) throw new IllegalArgumentException("limit is negative: " + limit);
        List<LoggedCommit> commits = new ArrayList<>();
        Optional<String> tip = resolve(ref);
        if (tip.isEmpty()) return commits;
        try (RevWalk walk = new RevWalk(repository)) {
            walk.sort(RevSort.COMMIT_TIME_DESC);
            walk.setTreeFilter(AndTreeFilter.create(PathFilter.create(path), TreeFilter.ANY_DIFF));
            walk.markStart(parseCommit(walk, tip.get(), "tip of " + ref));
            RevCommit commit;
            while (commits.size() < limit && (commit = walk.next()) != null) {
                Map<String, List<String>> trailers = new LinkedHashMap<>();
                for (FooterLine f : commit.getFooterLines()) trailers.computeIfAbsent(f.getKey(), k -> new ArrayList<>()).add(f.getValue());
                commits.add(new LoggedCommit(commit.name(), Instant.ofEpochSecond(commit.getCommitTime()), commit.getShortMessage(), trailers));
            }
        }
        return commits;
    }

    String treeOf(String commit) throws IOException {
        try (RevWalk walk = new RevWalk(repository)) {
            return parseCommit(walk, commit, "commit").getTree().name();
        }
    }

    /** Parses a full commit id, failing with a message that names its {@code role} when it is malformed or absent. */
    static RevCommit parseCommit(RevWalk walk, String id, String role) throws IOException {
        if (id == null || !FULL_ID.matcher(id).matches()) {
            throw new IOException(role + " is not a full commit id: " + id);
        }
        try {
            return walk.parseCommit(ObjectId.fromString(id));
        } catch (MissingObjectException e) {
            throw new IOException(role + " " + id + " is not in the mirror (not fetched yet?)", e);
        } catch (IncorrectObjectTypeException e) {
            throw new IOException(role + " " + id + " is not a commit", e);
        }
    }

    private static List<String> candidateRefs(String name) {
        return name.startsWith(Constants.R_REFS)
                ? List.of(name)
                : List.of(Constants.R_HEADS + name, Constants.R_REFS + name);
    }

    private Optional<String> commitOf(ObjectId id) throws IOException {
        return commit(id).map(RevCommit::name);
    }
}
