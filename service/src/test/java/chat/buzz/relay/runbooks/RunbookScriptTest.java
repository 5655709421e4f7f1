package chat.buzz.relay.runbooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunbookScriptTest {
    @TempDir
    Path directory;

    @Test
    void onlyShBlocksAreTakenInOrder() throws Exception {
        Path runbook = directory.resolve("01-example.md");
        Files.writeString(runbook, """
                # Example
                ```sh
                echo one
                ```
                ```json
                {"not": "run"}
                ```
                Some prose with `inline` code.
                ```sh
                echo two
                echo three
                ```
                """);
        RunbookScript script = RunbookScript.read(runbook);
        assertThat(script.blocks()).containsExactly("echo one\n", "echo two\necho three\n");
        assertThat(script.script())
                .startsWith("set -euo pipefail\n")
                .doesNotContain("not")
                .containsSubsequence("echo one", "echo two", "echo three");
    }

    @Test
    void anUnterminatedBlockIsAnError() throws Exception {
        Path runbook = directory.resolve("02-broken.md");
        Files.writeString(runbook, "```sh\necho never closed\n");
        assertThatThrownBy(() -> RunbookScript.read(runbook)).hasMessageContaining("unterminated");
    }
}
