package dev.windlass.policy.model;

/**
 * {@code Settings.spec.verify}: which commits of the config branch must be signed by a key the engine trusts before
 * anything of them is applied. The keys are never in the repo: they are given to the engine
 * ({@code windlass run --trusted-keys DIR}). A repo's setting can only make the check stricter than the engine's flag
 * ({@code --verify-commits}), never looser.
 *
 * @param mode  what is checked
 * @param since with {@link Mode#AllSince}, the commit (full id) after which every commit must be signed, used when the
 *              engine has no verified revision of its own to start from; null: the whole history
 */
public record VerifySettings(Mode mode, String since) {
    public static final VerifySettings NONE = new VerifySettings(Mode.Off, null);

    public enum Mode {
        /** Nothing is checked. */
        Off,
        /** The commit at the tip of the branch must be signed by a trusted key. */
        Tip,
        /** Every commit between the last verified one and the tip must be signed by a trusted key. */
        AllSince;

        /** The stricter of the two. */
        public Mode atLeast(Mode other) { return other.ordinal() > ordinal() ? other : this; }
    }

    public VerifySettings {
        mode = mode == null ? Mode.Off : mode;
    }
}
