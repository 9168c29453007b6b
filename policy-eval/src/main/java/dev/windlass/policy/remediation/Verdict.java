package dev.windlass.policy.remediation;

/** Whether remediation may act, and why, with the numbers that decided it. */
public record Verdict(boolean allowed, String why) {

    public static Verdict allow(String why) { return new Verdict(true, why); }

    public static Verdict block(String why) { return new Verdict(false, why); }

    @Override public String toString() { return (allowed ? "allowed: " : "blocked: ") + why; }
}
