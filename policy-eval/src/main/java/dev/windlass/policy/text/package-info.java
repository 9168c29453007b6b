/** How errors quote what they read: short excerpts, never a file at length. */
package dev.windlass.policy.text;
