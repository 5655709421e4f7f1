package chat.buzz.relay.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Runs client/target/buzz-sync.jar (built by the reactor before the service) as a separate process. */
final class CommandLineProcess {
    static final Path JAR =
            Path.of("..", "client", "target", "buzz-sync.jar").toAbsolutePath().normalize();

    private CommandLineProcess() {}

    static Process start(Path workingDirectory, String... args) {
        assertThat(JAR)
                .as("build the client module first (mvn -pl service -am ...)")
                .exists();
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.add("-jar");
        command.add(JAR.toString());
        command.addAll(List.of(args));
        try {
            return new ProcessBuilder(command)
                    .directory(workingDirectory.toFile())
                    .redirectOutput(workingDirectory.resolve("out.log").toFile())
                    .redirectError(ProcessBuilder.Redirect.appendTo(
                            workingDirectory.resolve("err.log").toFile()))
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + command, e);
        }
    }

    /** Runs to the end; the exit code. */
    static int run(Path workingDirectory, String... args) throws InterruptedException {
        Process process = start(workingDirectory, args);
        if (!process.waitFor(5, java.util.concurrent.TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("buzz-sync " + String.join(" ", args) + " did not finish in 5 minutes");
        }
        return process.exitValue();
    }

    /** Waits until a process started in {@code workingDirectory}, still running, has printed {@code text}. */
    static void awaitOutput(Process process, Path workingDirectory, String text) {
        await().atMost(Duration.ofSeconds(120)).untilAsserted(() -> {
            assertThat(process.isAlive())
                    .as("buzz-sync still runs; stderr: %s", errors(workingDirectory))
                    .isTrue();
            assertThat(output(workingDirectory)).contains(text);
        });
    }

    static String output(Path workingDirectory) throws IOException {
        return Files.readString(workingDirectory.resolve("out.log"));
    }

    static String errors(Path workingDirectory) throws IOException {
        Path err = workingDirectory.resolve("err.log");
        return Files.exists(err) ? Files.readString(err) : "";
    }
}
