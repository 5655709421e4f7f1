package chat.buzz.relay.fleet;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The version and build time Maven stamped into build.properties, so two builds of one version differ. */
public record BuildInfo(String version, String build) {
    private static final String UNSTAMPED = "${";

    public static BuildInfo ofThisBuild() {
        Properties properties = new Properties();
        try (InputStream in = BuildInfo.class.getResourceAsStream("build.properties")) {
            if (in != null) {
                properties.load(in);
            }
        } catch (IOException e) {
            // An unreadable resource only costs the fleet view its build column.
        }
        return new BuildInfo(
                stamped(properties.getProperty("version"), "development build"),
                stamped(properties.getProperty("built"), "unknown"));
    }

    /** Run from an IDE without Maven's filtering, the placeholders are still there: report them as unknown. */
    private static String stamped(String value, String otherwise) {
        return value == null || value.isBlank() || value.startsWith(UNSTAMPED) ? otherwise : value;
    }
}
