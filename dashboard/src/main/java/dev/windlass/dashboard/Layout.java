package dev.windlass.dashboard;

/** What every page shows around its content: the title, the navigation, and which pass it is from. */
public record Layout(String title, String nav, String branch, String source, String at, long version, boolean onFleet, boolean onPlans) {}
