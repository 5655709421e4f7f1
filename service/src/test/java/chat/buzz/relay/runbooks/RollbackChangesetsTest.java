package chat.buzz.relay.runbooks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Runbook 06 and the README name every changeset a rollback to {@code before-incremental} undoes, read
 * from the changelog itself: a migration added after the tag without a word on what its rollback means
 * fails here.
 */
class RollbackChangesetsTest {
    private static final Path RESOURCES = Path.of("src", "main", "resources");
    private static final Pattern INCLUDE = Pattern.compile("<include file=\"(migrations/[^\"]+)\"/>");
    private static final Pattern CHANGESET = Pattern.compile("(?m)^--changeset buzz:(\\S+)");

    @Test
    void runbook06AndTheReadmeNameEveryChangesetAfterTheTag() throws IOException {
        List<String> undone = changesetsAfterTheTag();
        assertThat(undone)
                .as("the changelog as this test reads it")
                .contains("0076-add-artifact-modified-at", "0110-create-database-epoch")
                .doesNotContain("0100-create-relay-instances", "0012-create-operator-audit");
        String runbook = Files.readString(Path.of("..", "runbooks", "06-rollback-incremental.md"));
        String readme = Files.readString(Path.of("..", "README.md"));
        for (String id : undone) {
            assertThat(runbook).as("runbook 06 names %s", id).contains("`" + id + "`");
            assertThat(readme).as("the README names %s", id).contains("`" + id + "`");
        }
    }

    /** Every changeset id of the files included after the tag's file, in the changelog's order. */
    private static List<String> changesetsAfterTheTag() throws IOException {
        Matcher include = INCLUDE.matcher(Files.readString(RESOURCES.resolve("migrations.xml")));
        List<String> ids = new ArrayList<>();
        boolean afterTag = false;
        while (include.find()) {
            String file = include.group(1);
            if (file.contains("tag-before-incremental")) {
                afterTag = true;
            } else if (afterTag) {
                Matcher changeset = CHANGESET.matcher(Files.readString(RESOURCES.resolve(file)));
                while (changeset.find()) {
                    ids.add(changeset.group(1));
                }
            }
        }
        return ids;
    }
}
