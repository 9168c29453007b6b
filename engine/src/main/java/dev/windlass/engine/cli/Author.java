package dev.windlass.engine.cli;

import java.io.IOException;
import org.eclipse.jgit.lib.StoredConfig;
import org.eclipse.jgit.util.SystemReader;

/** Who a command writes commits as: {@code --author "Name <email>"}, else the user's git config. */
record Author(String name, String email) {

    static Author of(String flag) {
        if (flag != null && !flag.isBlank()) {
            int lt = flag.indexOf('<');
            if (lt > 0 && flag.endsWith(">")) return new Author(flag.substring(0, lt).trim(), flag.substring(lt + 1, flag.length() - 1).trim());
            return new Author(flag.trim(), "");
        }
        try {
            StoredConfig c = SystemReader.getInstance().getUserConfig();
            String name = c.getString("user", null, "name");
            String email = c.getString("user", null, "email");
            if (name != null) return new Author(name, email == null ? "" : email);
        } catch (IOException | org.eclipse.jgit.errors.ConfigInvalidException ignored) {
            // fall through to the system user
        }
        return new Author(System.getProperty("user.name", "windlass"), "");
    }

    @Override public String toString() { return email.isEmpty() ? name : name + " <" + email + ">"; }
}
