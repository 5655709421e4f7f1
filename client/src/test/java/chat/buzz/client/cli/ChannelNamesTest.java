package chat.buzz.client.cli;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.client.Entry;
import chat.buzz.client.SqliteStore;
import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Channels named on the command line by the names the store's channel metadata holds, ids still taken. */
class ChannelNamesTest {
    /** Nothing listens on port 1: a command that got past its arguments fails to reach it (exit 4). */
    private static final String NO_RELAY = "http://127.0.0.1:1";

    private static final String PLANS = "6f1c2a3b-4d5e-4f60-8a71-92b3c4d5e6f7";
    private static final String GARDEN = "0b9c3f5e-4d1e-4bde-8a57-8d2b1c1f6e00";
    private static final String DUP_OPEN = "11111111-2222-4333-8444-555555555555";
    private static final String DUP_PRIVATE = "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee";
    private static final String ARTIFACT = "99999999-8888-4777-8666-555555555555";

    private final NostrKeys relay = NostrKeys.generate();
    private final String bob = NostrKeys.generate().publicKeyHex();

    @TempDir
    Path directory;

    private Path store;
    private Path key;

    private Event metadata(String id, String name, boolean isPrivate) {
        List<List<String>> tags = new ArrayList<>(List.of(List.of("d", id), List.of("name", name)));
        if (isPrivate) {
            tags.add(List.of("private"));
        }
        return relay.sign(Kinds.CHANNEL_METADATA, 10, tags, "");
    }

    @BeforeEach
    void aStoreThatKnowsFourChannels() {
        store = directory.resolve("s.db");
        key = directory.resolve("me.key");
        assertThat(CommandLineTest.run("keygen", "--key", key.toString()).exit())
                .isZero();
        try (SqliteStore opened = SqliteStore.open(store)) {
            opened.replaceChannelMetadata(
                    Optional.empty(),
                    List.of(
                            metadata(PLANS, "plans", true),
                            metadata(GARDEN, "garden", false),
                            metadata(DUP_OPEN, "dup", false),
                            metadata(DUP_PRIVATE, "dup", true)));
            Event head = relay.sign(
                    Kinds.ARTIFACT_REVISION,
                    10,
                    List.of(
                            List.of("d", ARTIFACT),
                            List.of("h", PLANS),
                            List.of("type", "task.basic"),
                            List.of("title", "Water the plants")),
                    "");
            opened.applyLive(List.of(new Entry(true, ARTIFACT, PLANS, head.id(), head.toJson(), null)));
        }
    }

    private CommandLineTest.Outcome run(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--store", store.toString()));
        return CommandLineTest.run(all.toArray(String[]::new));
    }

    private CommandLineTest.Outcome toRelay(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--relay", NO_RELAY, "--key", key.toString()));
        return run(all.toArray(String[]::new));
    }

    @Test
    void listTakesAChannelByNameByIdAndAsFollowPrintsIt() {
        String listed = ARTIFACT + "  " + PLANS + " (plans)  task.basic  Water the plants\n1 artifacts\n";
        for (String channel : List.of("plans", "PLANS", "#plans", PLANS, PLANS.toUpperCase(java.util.Locale.ROOT))) {
            CommandLineTest.Outcome outcome = run("list", "--channel", channel);
            assertThat(outcome.exit()).as(channel + ": " + outcome.err()).isZero();
            assertThat(outcome.out()).as(channel).isEqualTo(listed);
        }
        assertThat(run("list", "--channel", "garden").out()).isEqualTo("0 artifacts\n");
    }

    @Test
    void anAmbiguousNameIsOneLineListingTheCandidates() {
        CommandLineTest.Outcome outcome = run("list", "--channel", "dup");
        assertThat(outcome.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(outcome.err())
                .isEqualTo("buzz-sync: --channel: 2 channels are named 'dup': 'dup' (" + DUP_OPEN + ", open), 'dup' ("
                        + DUP_PRIVATE + ", private); give the id of the one you mean\n"
                        + "Try 'buzz-sync list --help'.\n");
        assertThat(run("list", "--channel", DUP_PRIVATE).exit()).isZero();
    }

    @Test
    void anUnknownNameIsOneLineNamingTheChannelsTheStoreKnows() {
        CommandLineTest.Outcome outcome = run("list", "--channel", "plan");
        assertThat(outcome.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(outcome.err())
                .isEqualTo("buzz-sync: --channel: no channel named 'plan' in the store (it knows 'dup' (" + DUP_OPEN
                        + ", open), 'dup' (" + DUP_PRIVATE + ", private), 'garden' (" + GARDEN + ", open), 'plans' ("
                        + PLANS + ", private)); run buzz-sync channels to refresh the names, or give the channel's id\n"
                        + "Try 'buzz-sync list --help'.\n");
    }

    @Test
    void withoutAStoreANameCannotBeLookedUp() {
        Path none = directory.resolve("none.db");
        CommandLineTest.Outcome outcome = CommandLineTest.run("list", "--channel", "plans", "--store", none.toString());
        assertThat(outcome.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(outcome.err())
                .startsWith("buzz-sync: --channel: 'plans' is not a channel id, and there is no store at " + none);
        assertThat(none).doesNotExist();
    }

    /** An unknown name stops every command before the relay is asked; a known one gets as far as the relay. */
    @Test
    void everyCommandThatTakesAChannelTakesItsName() {
        List<List<String>> commands = List.of(
                List.of("member", "add", "%s", bob),
                List.of("member", "remove", "%s", bob),
                List.of("channel", "edit", "%s", "--name", "yard"),
                List.of("channel", "delete", "%s"),
                List.of("join", "%s"),
                List.of("leave", "%s"),
                List.of("write", "--channel", "%s", "--type", "task.basic", "--title", "t"),
                List.of("sync", "--scope", "%s"));
        for (List<String> command : commands) {
            String[] unknown =
                    command.stream().map(a -> a.replace("%s", "nowhere")).toArray(String[]::new);
            CommandLineTest.Outcome refused = toRelay(unknown);
            assertThat(refused.exit()).as(String.join(" ", unknown)).isEqualTo(ExitCode.USAGE);
            assertThat(refused.err()).as(String.join(" ", unknown)).contains("no channel named 'nowhere'");
            String[] known =
                    command.stream().map(a -> a.replace("%s", "garden")).toArray(String[]::new);
            CommandLineTest.Outcome reached = toRelay(known);
            assertThat(reached.exit())
                    .as(String.join(" ", known) + ": " + reached.err())
                    .isEqualTo(ExitCode.UNAVAILABLE);
            assertThat(reached.err()).as(String.join(" ", known)).startsWith("buzz-sync: cannot reach the relay");
        }
    }
}
