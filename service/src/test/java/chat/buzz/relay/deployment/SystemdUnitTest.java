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
