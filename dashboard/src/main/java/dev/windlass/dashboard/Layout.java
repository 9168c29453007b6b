package dev.windlass.dashboard;

/** What every page shows around its content: the title, the navigation, and which pass it is from. */
/**
 * What every page shows around its content: the title, the navigation, which pass it is from, and who ran that pass
 * (the replica and shards its status commits name in their trailers; "" when not known).
 */
public record Layout(String title, String nav, String branch, String source, String at, long version, boolean onFleet, boolean onPlans,
                     String writer) {}
