package dev.windlass.engine.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

@Command(name = "windlass", mixinStandardHelpOptions = true, version = "windlass 0.1.0",
        description = "GitOps reconciliation for fleets of Kubernetes clusters.",
        subcommands = {RunCommand.class, ValidateCommand.class, PlanCommand.class, ImportCommand.class, StatusCommand.class, HistoryCommand.class,
                RolloutCommand.class, RenderCommand.class, DemoCommand.class, SuspendCommand.class, ResumeCommand.class, CommandLine.HelpCommand.class})
public final class Main {
    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs a command and returns its exit code; errors become exit code 2 with a one-line message. */
    public static int run(String... args) {
        return run(new java.io.PrintWriter(System.out, true), new java.io.PrintWriter(System.err, true), args);
    }

    public static int run(java.io.PrintWriter out, java.io.PrintWriter err, String... args) {
        CommandLine cli = new CommandLine(new Main());
        cli.setOut(out);
        cli.setErr(err);
        cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
            cmd.getErr().println("windlass: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            return 2;
        });
        cli.setExitCodeExceptionMapper(e -> 2);
        try {
            return cli.execute(args);
        } finally {
            // Commands may print without a newline; main() exits right after, so flush here.
            out.flush();
            err.flush();
        }
    }
}
