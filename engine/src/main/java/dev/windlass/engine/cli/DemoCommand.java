package dev.windlass.engine.cli;

import dev.windlass.engine.demo.Demo;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "demo", description = "Reconcile examples-repo onto three embedded sandbox clusters and tell what happened. Ends by itself.")
final class DemoCommand implements Callable<Integer> {
    @Option(names = "--dir", defaultValue = ".windlass-demo", description = "where to put the demo's Git origin (default: ${DEFAULT-VALUE})")
    Path dir;

    @Option(names = "--examples", defaultValue = "${sys:windlass.home:-.}/examples-repo", description = "the config repo to start from (default: ${DEFAULT-VALUE})")
    Path examples;

    @Spec CommandSpec spec;

    @Override public Integer call() throws Exception {
        return new Demo(dir.toAbsolutePath(), examples, spec.commandLine().getOut()).run();
    }
}
