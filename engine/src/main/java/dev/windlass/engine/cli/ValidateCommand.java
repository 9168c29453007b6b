package dev.windlass.engine.cli;

import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "validate", description = "Check a config repo folder. Prints every problem as path:line:col: message; exit 1 on errors.")
final class ValidateCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR", description = "the config repo folder")
    Path dir;

    @picocli.CommandLine.Mixin RenderOptions renderOptions;

    @Spec CommandSpec spec;

    @Override public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (!Files.isDirectory(dir)) {
            spec.commandLine().getErr().println(dir + ": not a folder");
            return 2;
        }
        DesiredState s = dev.windlass.engine.render.AppRendering.shared().read(DirectorySnapshot.of(dir));
        for (Diagnostic d : s.diagnostics()) out.println(d);
        long errors = s.diagnostics().stream().filter(Diagnostic::isError).count();
        long warnings = s.diagnostics().size() - errors;
        long invalid = s.apps().values().stream().filter(a -> !a.valid()).count();
        out.println(dir + ": " + s.clusters().size() + " clusters, " + s.apps().size() + " applications"
                + (invalid > 0 ? " (" + invalid + " invalid)" : "") + ", " + errors + (errors == 1 ? " error" : " errors")
                + ", " + warnings + (warnings == 1 ? " warning" : " warnings"));
        return errors > 0 ? 1 : 0;
    }
}
