/** The plan as a value (stages of actions with reasons), the pure {@code Planner} that computes it, and outcomes of executing it. */
package dev.windlass.policy.plan;
