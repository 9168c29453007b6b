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
        if (!serve) return demo.run();
        // Ctrl-C: the demo's passes stop, it closes the fleet and the dashboard, and only then does the JVM exit.
        CountDownLatch done = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            demo.stop();
            try {
                done.await(30, TimeUnit.SECONDS);
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
