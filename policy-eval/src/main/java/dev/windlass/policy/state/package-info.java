/** What the engine remembers between passes, exactly as it is stored on the status branch. */
package dev.windlass.policy.state;
