package dev.windlass.policy.suspension;

/**
 * What holds an application on a cluster: which kind of hold it is, and in words for plans, reviews and conditions.
 *
 * @param reason the condition reason a {@code Suspended} condition carries for it
 * @param text   what holds it, as a plan says it ("Application/web suspended: canary", "Freeze/x until ...")
 */
public record Hold(Reason reason, String text) {

    public enum Reason { ApplicationSuspended, ClusterSuspended, Frozen }
}
