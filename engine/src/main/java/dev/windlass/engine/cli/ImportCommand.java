package dev.windlass.engine.cli;

import dev.windlass.engine.migrate.ImportRun;
import dev.windlass.engine.migrate.NativeImport;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "import", description = {"Write the applications Windlass reads from a repo's Flux or Argo CD objects as native Windlass objects,",
        "as one commit on a new branch of the repo at PATH (a Git working tree), ready for a pull request.",
        "The commit is written with JGit straight into the repository: the branch checked out, the index and the files on disk are not touched.",
        "Each application is rendered both ways and compared cluster by cluster; one that would read differently, or uses what the native",
        "format cannot say, is left as it was, with an error at its file, line and column, and the others are written.",
        "Exit 0: every application written, 1: some left as they were, 2: nothing written (an error, or nothing to import)."})
final class ImportCommand implements Callable<Integer> {
    enum From { flux, argocd }

    @Option(names = "--from", required = true, paramLabel = "flux|argocd", description = "whose objects to import: flux or argocd")
    From from;

    @Option(names = "--branch", paramLabel = "NAME", description = "the branch to create (default: windlass-import-<from>)")
    String branch;

    @Parameters(index = "0", paramLabel = "PATH", description = "the top folder of the repo's Git working tree; its checked-out commit is read")
    Path path;

    @Mixin RenderOptions renderOptions;

    @Spec CommandSpec spec;

    @Override public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        NativeImport.Tool tool = from == From.flux ? NativeImport.Tool.FLUX : NativeImport.Tool.ARGOCD;
        String name = branch != null ? branch : "windlass-import-" + from;
        return ImportRun.run(path, tool, name, dev.windlass.engine.render.AppRendering.shared()::read, out, err);
    }
}
