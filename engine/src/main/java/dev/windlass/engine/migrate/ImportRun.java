package dev.windlass.engine.migrate;

import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.source.Snapshot;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.function.Function;

/** What {@code windlass import} does and prints: read, write natively, compare, commit on a new branch. */
public final class ImportRun {
    private ImportRun() {}

    /** @return 0 when every application was written, 1 when some were left as they were, 2 when nothing was written */
    public static int run(Path path, NativeImport.Tool tool, String branch, Function<Snapshot, DesiredState> reading, PrintWriter out,
                          PrintWriter err) {
        try (GitTree git = GitTree.open(path)) {
            if (git.hasBranch(branch)) {
                err.println("branch " + branch + " already exists in " + path + "; delete it, or give another name with --branch");
                return 2;
            }
            out.println("reading " + git.headName() + " (" + git.headId().substring(0, 12) + ") of " + path + " as Windlass reads it, and rendering it...");
            out.flush();
            NativeImport.Result r = new NativeImport(reading).run(git.snapshot(), tool);
            if (r.written().isEmpty()) {
                r.kept().forEach(d -> err.println(d));
                err.println(r.kept().isEmpty() ? "no application is read from " + tool.label + " objects in " + path + "; nothing to import"
                        : "no application could be written natively; nothing was committed");
                return 2;
            }
            StringBuilder message = new StringBuilder("Import from " + tool.label + ": " + r.written().size() + " native Windlass Application"
                    + (r.written().size() == 1 ? "" : "s") + "\n\n");
            r.written().forEach((app, origin) -> message.append("- ").append(app).append(", from the ").append(origin.describe()).append('\n'));
            if (!r.kept().isEmpty()) {
                message.append("\nLeft as they were:\n\n");
                r.kept().forEach(d -> message.append("- ").append(d).append('\n'));
            }
            String commit = git.commit(branch, r.changes(), message.toString());
            out.println("wrote " + r.written().size() + " application" + (r.written().size() == 1 ? "" : "s") + " as native Windlass objects"
                    + " on the new branch " + branch + " (commit " + commit.substring(0, 12) + "), its parent " + git.headId().substring(0, 12) + ":");
            r.written().forEach((app, origin) -> out.println("  " + app + ": was the " + origin.describe()
                    + (r.unchecked().containsKey(app) ? "\n      not compared: it does not render here: " + r.unchecked().get(app) : "")));
            out.println("files changed: " + r.changes().size());
            r.changes().forEach((p, b) -> out.println("  " + (b == null ? "deleted  " : "written  ") + p));
            r.notes().forEach(n -> out.println("note: " + n));
            if (!r.kept().isEmpty()) {
                out.println(r.kept().size() + " application" + (r.kept().size() == 1 ? " was" : "s were") + " left as " + tool.label + " reads "
                        + (r.kept().size() == 1 ? "it" : "them") + " (the others are written):");
                r.kept().forEach(d -> out.println("  " + d));
            }
            out.println("your checked-out branch and working tree are unchanged. Next: look at it with `git -C " + path + " show --stat " + branch
                    + "`, check its plan with `windlass plan --repo <url> --head " + branch + "`, then push it and open a pull request:"
                    + " `git -C " + path + " push origin " + branch + "`.");
            return r.kept().isEmpty() ? 0 : 1;
        } catch (IOException e) {
            err.println(e.getMessage());
            return 2;
        }
    }
}
