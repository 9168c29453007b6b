package dev.windlass.render;

import java.time.Duration;

/**
 * The boundary around the render tools: how many run at once, how long one may take, how much one may print, and how
 * much rendered text the engine keeps at once. A render past a limit fails that application's render only.
 *
 * <p>The sizes follow the engine's own heap ({@link #forHeap}), since what a render prints is read into objects that
 * take several times its size: one render may print a sixteenth of the heap (at most 64 MiB), and the renders of one
 * commit together, and each cache of renders, a sixteenth as well: what a render prints is read into objects,
 * applied, and watched on the clusters, each a copy of about its size.
 *
 * @param maxOutputBytes what one render may print
 * @param maxTotalBytes  what the renders of one commit may print together, and what the cache of renders keeps
 */
public record RenderLimits(int concurrency, Duration timeout, int maxOutputBytes, long maxTotalBytes, long heapBytes) {

    static final int MAX_OUTPUT = 64 * 1024 * 1024;
    static final int MIN_OUTPUT = 4 * 1024 * 1024;

    /** The limits for this JVM's heap ({@code -Xmx}, or the share of the container's memory the JVM took). */
    public static final RenderLimits DEFAULT = forHeap(Runtime.getRuntime().maxMemory());

    public RenderLimits {
        if (concurrency < 1 || timeout.isNegative() || timeout.isZero() || maxOutputBytes < 1 || maxTotalBytes < maxOutputBytes) {
            throw new IllegalArgumentException("render limits must be positive, and the total at least one render's output");
        }
    }

    /** Limits with a total as large as it gets: for tests of one render. */
    public RenderLimits(int concurrency, Duration timeout, int maxOutputBytes) {
        this(concurrency, timeout, maxOutputBytes, Long.MAX_VALUE, Runtime.getRuntime().maxMemory());
    }

    /** Two renders at once, 60 s each, and the sizes a heap of {@code heapBytes} can afford. */
    public static RenderLimits forHeap(long heapBytes) {
        int output = (int) Math.max(MIN_OUTPUT, Math.min(MAX_OUTPUT, heapBytes / 16));
        long total = Math.max(output, heapBytes / 16);
        return new RenderLimits(2, Duration.ofSeconds(60), output, total, heapBytes);
    }

    /** How the limit on one render's output is said: its size, and what it follows from. */
    String outputLimitSaid() {
        return ToolRun.bytes(maxOutputBytes) + ", the most one render may print in this engine"
                + (maxOutputBytes == MAX_OUTPUT || heapBytes <= 0 ? "" : " (a sixteenth of its " + ToolRun.bytes(heapBytes) + " heap)")
                + "; render less, or give the engine more memory (-Xmx, or the container's memory limit)";
    }
}
