package dev.windlass.render;

import java.time.Duration;

/**
 * The boundary around the render tools: how many run at once, how long one may take, and how much it may write.
 * A render past a limit fails that application's render only.
 */
public record RenderLimits(int concurrency, Duration timeout, int maxOutputBytes) {

    public static final RenderLimits DEFAULT = new RenderLimits(2, Duration.ofSeconds(60), 64 * 1024 * 1024);

    public RenderLimits {
        if (concurrency < 1 || timeout.isNegative() || timeout.isZero() || maxOutputBytes < 1) {
            throw new IllegalArgumentException("render limits must be positive");
        }
    }
}
