package chat.buzz.relay.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.relay.testing.IntegrationTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * deploy/systemd's unit passes {@code systemd-analyze verify} (Debian's systemd package, which .ci/run
 * installs) as the instance buzz-relay@a: no unknown keys, no bad values, an executable ExecStart.
 */
@IntegrationTest
class SystemdUnitTest {
    private static final Path UNIT = Path.of("..", "deploy", "systemd", "buzz-relay@.service");

    @Test
    void theUnitVerifiesCleanlyAsAnInstance(@TempDir Path directory) throws Exception {
        Path instance = Files.copy(UNIT, directory.resolve("buzz-relay@a.service"));

        Process verify = new ProcessBuilder("systemd-analyze", "verify", instance.toString())
                .redirectErrorStream(true)
                .start();
        assertThat(verify.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String output = new String(verify.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

        // verify exits 0 even for unknown keys; it only says so, so nothing said is the pass.
        assertThat(verify.exitValue()).as(output).isZero();
        assertThat(output.strip()).isEmpty();
    }

    /**
     * The JVM options of the unit's ExecStart, with its Environment= default for the heap, give the JVM
     * a 1 GiB heap: what {@code -XX:+PrintFlagsFinal} reports, not only what the line says.
     */
    @Test
    void theUnitBoundsTheHeap() throws Exception {
        String unit = Files.readString(UNIT);
        String execStart = unit.lines()
                .filter(line -> line.startsWith("ExecStart="))
                .findFirst()
                .orElseThrow();
        String options = execStart.substring(execStart.indexOf("java ") + 5, execStart.indexOf(" -jar "));
        assertThat(options).contains("-Xmx");
        String defaults = String.join(
                "\n",
                unit.lines()
                        .filter(line -> line.startsWith("Environment=BUZZ_MAX_HEAP="))
                        .map(line -> line.substring("Environment=".length()))
                        .toList());
        Process java = new ProcessBuilder(
                        "bash", "-c", defaults + "\nexec java " + options + " -XX:+PrintFlagsFinal -version")
                .redirectErrorStream(true)
                .start();
        String flags = new String(java.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(java.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(java.exitValue()).as(flags).isZero();
        assertThat(flags).containsPattern("\\bMaxHeapSize\\s+= 1073741824\\b");
        assertThat(flags).containsPattern("\\bExitOnOutOfMemoryError\\s+= true\\b");
    }

    @Test
    void aBrokenUnitIsNoticed(@TempDir Path directory) throws IOException, InterruptedException {
        Path broken = directory.resolve("broken@a.service");
        Files.writeString(broken, Files.readString(UNIT).replace("TimeoutStopSec=40", "TimeoutStopSecs=40"));

        Process verify = new ProcessBuilder("systemd-analyze", "verify", broken.toString())
                .redirectErrorStream(true)
                .start();
        assertThat(verify.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(new String(verify.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                .contains("Unknown key", "TimeoutStopSecs");
    }
}
