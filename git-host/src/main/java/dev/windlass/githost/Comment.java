package dev.windlass.githost;

/** One pull request comment as the listing shows it. */
record Comment(long id, String body) {

    boolean contains(String marker) {
        return body.contains(marker);
    }
}
