package dev.windlass.engine.cli;

import dev.windlass.engine.demo.Demo;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "demo", description = "Reconcile examples-repo onto three embedded sandbox clusters and tell what happened, with the "
        + "dashboard up while it runs. Ends by itself; with --serve the fleet and the dashboard stay up until interrupted.")
final class DemoCommand implements Callable<Integer> {
    /** How long a signal waits for the demo to close its fleet before the JVM exits anyway (closing takes well under it). */
    static final java.time.Duration STOP_WAIT = java.time.Duration.ofMillis(1500);

    @Option(names = "--dir", defaultValue = ".windlass-demo", description = "where to put the demo's Git origin (default: ${DEFAULT-VALUE})")
    Path dir;

    @Option(names = "--examples", defaultValue = "${sys:windlass.home:-.}/examples-repo", description = "the config repo to start from (default: ${DEFAULT-VALUE})")
    Path examples;

    @Option(names = "--listen", defaultValue = "127.0.0.1:0",
            description = "the dashboard's address; port 0 picks a free one, printed at the start (default: ${DEFAULT-VALUE})")
    String listen;

    @Option(names = "--serve", description = "after the story, keep the fleet reconciling and the dashboard up until Ctrl-C")
    boolean serve;

    @picocli.CommandLine.Mixin RenderOptions renderOptions;

    @Spec CommandSpec spec;

    @Override public Integer call() throws Exception {
        int colon = listen.lastIndexOf(':');
        if (colon < 0) throw new CommandLine.ParameterException(spec.commandLine(), "--listen takes host:port, e.g. 127.0.0.1:8080");
        InetSocketAddress address = new InetSocketAddress(listen.substring(0, colon), Integer.parseInt(listen.substring(colon + 1)));
        Demo demo = new Demo(dir.toAbsolutePath(), examples, spec.commandLine().getOut(), address, serve, (m, e, u) -> {});
        // SIGTERM or Ctrl-C, at any point of the story or while serving: the hook stops the demo (which interrupts the story
        // wherever it waits), and the JVM exits once the demo has closed the fleet and the dashboard, or after STOP_WAIT.
        CountDownLatch done = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            demo.stop();
            try {
                done.await(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "windlass-demo-stop"));
        try {
            return demo.run();
        } finally {
            done.countDown();
        }
    }
}
