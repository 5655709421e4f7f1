package chat.buzz.client.cli;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.Hex;
import chat.buzz.protocol.NostrKeys;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rough edges a first user hit, each refused or handled before anything reaches a relay. */
class CommandLineGotchasTest {
    /** Nothing listens on port 1: connecting is refused at once. */
    private static final String NO_RELAY = "http://127.0.0.1:1";

    private static final String CHANNEL = "0b9c3f5e-4d1e-4bde-8a57-8d2b1c1f6e00";

    @TempDir
    Path directory;

    private Path key() {
        Path key = directory.resolve("me.key");
        if (!Files.exists(key)) {
            assertThat(CommandLineTest.run("keygen", "--key", key.toString()).exit())
                    .isZero();
        }
        return key;
    }

    private CommandLineTest.Outcome write(String stdin, String... args) {
        List<String> all = new ArrayList<>(List.of("write", "--relay", NO_RELAY, "--key", key().toString()));
        all.add("--store");
        all.add(directory.resolve("s.db").toString());
        all.addAll(List.of(args));
        InputStream before = System.in;
        System.setIn(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
        try {
            return CommandLineTest.run(all.toArray(String[]::new));
        } finally {
            System.setIn(before);
        }
    }

    @Test
    void twoJsonObjectsOnStdinAreRefusedRatherThanTheSecondDropped() {
        String two = "{\"channel\":\"" + CHANNEL + "\",\"type\":\"task.basic\",\"title\":\"one\"}\n" + "{\"channel\":\""
                + CHANNEL + "\",\"type\":\"task.basic\",\"title\":\"two\"}\n";
        CommandLineTest.Outcome outcome = write(two, "--json", "-");
        assertThat(outcome.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(outcome.err())
                .contains("--json - holds 2 JSON values; write takes exactly one object (run write once per object)");
        assertThat(outcome.out()).isEmpty();
    }

    @Test
    void anUnknownJsonKeyIsRefusedByName() {
        CommandLineTest.Outcome outcome =
                write("{\"channel\":\"" + CHANNEL + "\",\"type\":\"task.basic\",\"titel\":\"typo\"}", "--json", "-");
        assertThat(outcome.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(outcome.err())
                .contains("--json: unknown key 'titel' (the keys are op, id, channel, type, title, content, prev)");
    }

    @Test
    void aChannelNameNoStoreKnowsIsAUsageErrorBeforeTheRelayIsAsked() {
        CommandLineTest.Outcome outcome = write("", "--channel", "general", "--type", "task.basic", "--title", "t");
        assertThat(outcome.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(outcome.err())
                .contains("--channel: 'general' is not a channel id, and there is no store at")
                .contains("give the channel's id");
        assertThat(outcome.err()).doesNotContain("reach");
    }

    @Test
    void aRelayUrlWithoutASchemeIsAUsageErrorThatSaysWhatToAdd() {
        CommandLineTest.Outcome outcome =
                CommandLineTest.run("whoami", "--relay", "127.0.0.1:8080", "--key", key().toString());
        assertThat(outcome.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(outcome.err())
                .startsWith("buzz-sync: relay URL must look like https://relay.example.com, not '127.0.0.1:8080'"
                        + " (add the scheme: http://127.0.0.1:8080)\n")
                .doesNotContain("Exception");
    }

    @Test
    void anUnreachableRelayIsOneLineWithoutRetries() {
        CommandLineTest.Outcome outcome = CommandLineTest.run(
                "sync",
                "--relay",
                NO_RELAY,
                "--key",
                key().toString(),
                "--store",
                directory.resolve("s.db").toString());
        assertThat(outcome.exit()).isEqualTo(ExitCode.UNAVAILABLE);
        assertThat(outcome.err())
                .isEqualTo("buzz-sync: cannot reach the relay: GET / to " + NO_RELAY + ": connection refused"
                        + " (check --relay, that the relay runs, and your network)\n");
    }

    @Test
    void aStoreIsCreatedForItsOwnerOnly() throws Exception {
        Path store = directory.resolve("s.db");
        CommandLineTest.run("sync", "--relay", NO_RELAY, "--key", key().toString(), "--store", store.toString());
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(store)))
                .isEqualTo("rw-------");
    }

    @Test
    void aStoreInADirectoryThatDoesNotExistIsRefusedWithoutCreatingIt() {
        Path missing = directory.resolve("nonexistent");
        CommandLineTest.Outcome outcome = CommandLineTest.run(
                "sync",
                "--relay",
                NO_RELAY,
                "--key",
                key().toString(),
                "--store",
                missing.resolve("x.db").toString());
        assertThat(outcome.exit()).isEqualTo(ExitCode.LOCAL);
        assertThat(outcome.err()).contains("the directory " + missing + " does not exist (create it first)");
        assertThat(missing).doesNotExist();
    }

    @Test
    void listAndGetWithoutAStoreSaySoAndCreateNone() {
        Path store = directory.resolve("never.db");
        CommandLineTest.Outcome list = CommandLineTest.run("list", "--store", store.toString());
        assertThat(list.exit()).isEqualTo(ExitCode.LOCAL);
        assertThat(list.err()).contains("no store at " + store + " (buzz-sync sync creates it");
        CommandLineTest.Outcome get = CommandLineTest.run("get", CHANNEL, "--store", store.toString());
        assertThat(get.exit()).isEqualTo(ExitCode.LOCAL);
        assertThat(store).doesNotExist();
    }

    @Test
    void anUpperCaseKeyIsTheSameKeyAsItsLowerCase() throws Exception {
        NostrKeys keys = NostrKeys.generate();
        Path upper = Files.writeString(
                directory.resolve("upper.key"), Hex.encode(keys.secretKey()).toUpperCase(Locale.ROOT) + "\n");
        Files.setPosixFilePermissions(upper, PosixFilePermissions.fromString("rw-------"));
        List<String> warnings = new ArrayList<>();
        assertThat(KeyFile.read(upper, warnings::add).publicKeyHex()).isEqualTo(keys.publicKeyHex());
        assertThat(warnings).isEmpty();
    }

    @Test
    void aKeyFileOfTheWrongLengthSaysWhatItHolds() throws Exception {
        Path shortKey = Files.writeString(directory.resolve("short.key"), "ABCDEF\n");
        CommandLineTest.Outcome outcome =
                CommandLineTest.run("whoami", "--relay", NO_RELAY, "--key", shortKey.toString());
        assertThat(outcome.exit()).isEqualTo(ExitCode.LOCAL);
        assertThat(outcome.err())
                .contains("the key file " + shortKey + " does not hold a secret key as 64 hex digits (it holds 6"
                        + " characters)");
        Path notHex = Files.writeString(directory.resolve("nothex.key"), "z".repeat(64));
        assertThat(CommandLineTest.run("whoami", "--relay", NO_RELAY, "--key", notHex.toString())
                        .err())
                .contains("(it holds 64 characters, not all of them hex digits)");
    }

    @Test
    void aKeyFileOthersMayReadIsUsedWithAWarning() throws Exception {
        Path key = key();
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-r--r--"));
        CommandLineTest.Outcome outcome = CommandLineTest.run(
                "sync",
                "--relay",
                NO_RELAY,
                "--key",
                key.toString(),
                "--store",
                directory.resolve("s.db").toString(),
                "--quiet");
        assertThat(outcome.err())
                .startsWith("buzz-sync: warning: the key file " + key + " can be read or written by others (rw-r--r--);"
                        + " make it private with: chmod 600 " + key + "\n")
                .contains("cannot reach the relay");
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
        assertThat(CommandLineTest.run(
                                "sync",
                                "--relay",
                                NO_RELAY,
                                "--key",
                                key.toString(),
                                "--store",
                                directory.resolve("s.db").toString())
                        .err())
                .doesNotContain("warning");
    }

    @Test
    void stderrOfATestRunIsNoTerminal() {
        // Surefire pipes the forked JVM's stderr: the check must say so, or buzz-sync > log would fill with \r.
        assertThat(Terminal.stderrIsOne()).isFalse();
    }

    @Test
    void aListThatMarksAnArtifactKnownByIdOnlySaysWhatThatMeans() {
        NostrKeys writer = NostrKeys.generate();
        String d = "99999999-8888-4777-8666-555555555555";
        chat.buzz.protocol.Event head = writer.sign(
                chat.buzz.protocol.Kinds.ARTIFACT_REVISION,
                10,
                List.of(List.of("d", d), List.of("h", CHANNEL), List.of("type", "task.basic"), List.of("title", "t")),
                "");
        Path store = directory.resolve("known.db");
        try (chat.buzz.client.SqliteStore opened = chat.buzz.client.SqliteStore.open(store)) {
            opened.applyKnownIds(
                    List.of(new chat.buzz.client.Entry(true, d, CHANNEL, head.id(), head.toJson(), null)), "p");
        }
        CommandLineTest.Outcome outcome = CommandLineTest.run("list", "--store", store.toString());
        assertThat(outcome.exit()).isZero();
        assertThat(outcome.out())
                .isEqualTo(d + "  " + CHANNEL + "  task.basic  t  (known by id only)\n1 artifacts\n"
                        + ListCommand.KNOWN_BY_ID_ONLY + "\n");
    }
}
