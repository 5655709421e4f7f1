package chat.buzz.client.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Whether stderr is a terminal: Java 17 can only ask about the console as a whole, so Linux's /proc is asked. */
final class Terminal {
    private Terminal() {}

    static boolean stderrIsOne() {
        Path stderr = Path.of("/proc/self/fd/2");
        if (Files.exists(stderr, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            try {
                String target = Files.readSymbolicLink(stderr).toString();
                return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
            } catch (IOException | UnsupportedOperationException unreadable) {
                return false;
            }
        }
        // Elsewhere: a console exists only when stdin and stdout are terminals; stderr usually is one then.
        return System.console() != null;
    }
}
