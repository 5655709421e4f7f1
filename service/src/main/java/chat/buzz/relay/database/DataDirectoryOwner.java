package chat.buzz.relay.database;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Which relay process runs local mode's database in a data directory: its pid, in a file beside the
 * directory (never inside it: initdb wants an empty one). A second relay started on the same files
 * cannot take the directory's lock; it says which process holds it instead of a lock file's stack trace.
 */
final class DataDirectoryOwner {
    private DataDirectoryOwner() {}

    static void record(Path directory) throws IOException {
        Files.writeString(file(directory), ProcessHandle.current().pid() + "\n", StandardCharsets.US_ASCII);
    }

    /** zonky's refusal when another process holds the data directory's lock. */
    static boolean isLockFailure(IllegalStateException e) {
        return e.getMessage() != null && e.getMessage().startsWith("could not lock");
    }

    static IllegalStateException alreadyInUse(Path directory) {
        String holder = holder(directory);
        String message = "another relay is already running on the local database in " + directory
                + (holder == null ? "" : " (process " + holder + ")")
                + "; stop it first, or give this one its own embeddedDatabase.dataDirectory";
        IllegalStateException refusal = new IllegalStateException(message);
        // An expected situation with a complete message: printed as one line, not a trace.
        refusal.setStackTrace(new StackTraceElement[0]);
        return refusal;
    }

    private static String holder(Path directory) {
        try {
            String pid =
                    Files.readString(file(directory), StandardCharsets.US_ASCII).trim();
            return ProcessHandle.of(Long.parseLong(pid))
                            .filter(ProcessHandle::isAlive)
                            .isPresent()
                    ? pid
                    : null;
        } catch (IOException | NumberFormatException e) {
            return null;
        }
    }

    private static Path file(Path directory) {
        return directory.resolveSibling(directory.getFileName() + ".pid");
    }
}
