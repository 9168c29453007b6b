package dev.windlass.dashboard;

import java.util.ArrayList;
import java.util.List;

/**
 * The last alert events and how their delivery stands per provider, as the status branch records them
 * ({@code status/alerts.yaml}): the fleet page's "Alerts" section, shown once the repo has alerted anyone.
 *
 * @param rows newest first, at most {@value #SHOWN}
 */
public record AlertPanel(List<Row> rows, int shown, int pending, int failed) {
    public static final int SHOWN = 20;

    /**
     * One event for one provider.
     *
     * @param subject what it is about: {@code web on eu-2}, or {@code cluster eu-1}
     * @param state   Pending, Delivered or Failed
     * @param error   why the last try failed, for people; "" when none
     */
    public record Row(String at, String kind, String severity, String subject, String revision, String provider, String state, int attempts,
                      String error) {
        public boolean isPending() { return state.equals("Pending"); }

        public boolean isFailed() { return state.equals("Failed"); }

        /** How the delivery stands, in words: "delivered (1 try)", "pending (3 tries so far)", "failed after 2 tries: answered 404". */
        public String delivery() {
            String tries = attempts + (attempts == 1 ? " try" : " tries");
            if (isPending()) return attempts == 0 ? "pending" : "pending (" + tries + " so far" + (error.isEmpty() ? "" : ": " + error) + ")";
            if (isFailed()) return "failed" + (attempts == 0 ? "" : " after " + tries) + (error.isEmpty() ? "" : ": " + error);
            return "delivered (" + tries + ")";
        }
    }

    /** The panel for {@code all} (oldest first, as recorded), or null when nothing was ever alerted. */
    public static AlertPanel of(List<Row> all) {
        if (all == null || all.isEmpty()) return null;
        List<Row> newest = new ArrayList<>(all);
        java.util.Collections.reverse(newest);
        int pending = (int) all.stream().filter(Row::isPending).count();
        int failed = (int) all.stream().filter(Row::isFailed).count();
        return new AlertPanel(List.copyOf(newest.subList(0, Math.min(SHOWN, newest.size()))), Math.min(SHOWN, newest.size()), pending, failed);
    }
}
