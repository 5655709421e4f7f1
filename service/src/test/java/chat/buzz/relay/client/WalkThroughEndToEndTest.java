package chat.buzz.relay.client;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.client.cli.BuzzSync;
import chat.buzz.client.cli.ExitCode;
import chat.buzz.relay.testing.IntegrationTest;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README's walk-through, driven only through buzz-sync with two key files against a real relay:
 * Alice creates a private channel and writes into it; Bob sees nothing; Alice adds Bob and he syncs
 * the artifact and sees the channel by name; Alice removes him and it is gone from his store.
 */
@IntegrationTest
class WalkThroughEndToEndTest extends ClientEndToEndFixture {
    private static final String HEX64 = "[0-9a-f]{64}";
    private static final String UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

    record Outcome(int exit, String out, String err) {}

    /** One command as {@code user}: its key file and store, the relay of the fixture. */
    private Outcome as(String user, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of(
                "--relay",
                relay().baseUrl(),
                "--key",
                directory.resolve(user + ".key").toString(),
                "--store",
                directory.resolve(user + ".db").toString()));
        Outcome outcome = run(all.toArray(String[]::new));
        assertThat(outcome.exit())
                .as(user + " " + String.join(" ", args) + ": " + outcome.err())
                .isZero();
        assertThat(outcome.err()).as("nothing on stderr").isEmpty();
        return outcome;
    }

    /** One command as {@code user} that must fail: its exit code and its one error line (and a hint for usage). */
    private Outcome failing(String user, int exit, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of(
                "--relay",
                relay().baseUrl(),
                "--key",
                directory.resolve(user + ".key").toString(),
                "--store",
                directory.resolve(user + ".db").toString()));
        Outcome outcome = run(all.toArray(String[]::new));
        assertThat(outcome.exit())
                .as(user + " " + String.join(" ", args) + ": " + outcome.err())
                .isEqualTo(exit);
        assertThat(outcome.out()).isEmpty();
        List<String> lines = outcome.err().lines().toList();
        assertThat(lines).as(outcome.err()).hasSize(exit == ExitCode.USAGE ? 2 : 1);
        assertThat(lines).allMatch(line -> line.startsWith("buzz-sync: ") || line.startsWith("Try 'buzz-sync"));
        return outcome;
    }

    private static Outcome run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = BuzzSync.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Outcome(exit, out.toString(), err.toString());
    }

    private String keygen(String user) {
        Outcome keygen = run("keygen", "--key", directory.resolve(user + ".key").toString());
        assertThat(keygen.exit()).isZero();
        Matcher pubkey = Pattern.compile("^public key (" + HEX64 + ")\nsecret key written to .*" + user + ".key\n$")
                .matcher(keygen.out());
        assertThat(pubkey.matches()).as(keygen.out()).isTrue();
        return pubkey.group(1);
    }

    @Test
    void twoUsersAPrivateChannelAGrantAndARevoke() {
        keygen("alice");
        String bob = keygen("bob");

        Outcome created = as("alice", "channel", "create", "--name", "plans", "--private");
        Matcher channelId = Pattern.compile(
                        "^channel created: \"plans\" \\((" + UUID + ")\\), private; you are its owner\n$")
                .matcher(created.out());
        assertThat(channelId.matches()).as(created.out()).isTrue();
        String plans = channelId.group(1);
        try {
            Outcome written =
                    as("alice", "write", "--channel", "plans", "--type", "task.basic", "--title", "Water the plants");
            Matcher artifact = Pattern.compile("^create accepted: artifact (" + UUID + "), head " + HEX64
                            + "\nconfirmed by a known-ID read; the store holds it\n$")
                    .matcher(written.out());
            assertThat(artifact.matches()).as(written.out()).isTrue();
            String d = artifact.group(1);
            // The writer's own write is held as discoverable: no "(known by id only)" mark.
            assertThat(as("alice", "list").out())
                    .isEqualTo(d + "  " + plans + " (plans)  task.basic  Water the plants\n1 artifacts\n");
            assertThat(as("alice", "channels").out()).isEqualTo(plans + "  private  owner   plans\n1 channels\n");

            assertThat(as("bob", "sync").out())
                    .isEqualTo("synced: bootstrap; 1 pages, 0 upserts, 0 removes; the store holds 0 artifacts\n"
                            + "self-check: store matches the relay: 0 artifacts, digest " + "0".repeat(64) + "\n"
                            + "channels: 0 you can read\n");
            assertThat(as("bob", "list").out()).isEqualTo("0 artifacts\n");
            // Names are the ones the store holds: Bob's knows no "plans".
            assertThat(failing("bob", ExitCode.USAGE, "join", "plans").err())
                    .startsWith("buzz-sync: CHANNEL: no channel named 'plans' in the store (it knows no channels)");

            assertThat(as("alice", "member", "add", "plans", bob).out())
                    .isEqualTo("member added: " + bob + " to \"plans\" (" + plans + ") as member\n");
            assertThat(as("bob", "sync").out())
                    .containsPattern("^synced: .*; the store holds 1 artifacts\n")
                    .endsWith("channels: 1 you can read\n");
            assertThat(as("bob", "list").out())
                    .isEqualTo(d + "  " + plans + " (plans)  task.basic  Water the plants\n1 artifacts\n");
            assertThat(as("bob", "channels").out()).isEqualTo(plans + "  private  member  plans\n1 channels\n");
            assertThat(as("bob", "whoami").out())
                    .contains("channels    1 you can read\n  " + plans + "  private  member  plans  1 artifacts\n");

            assertThat(as("alice", "member", "remove", "plans", bob).out())
                    .isEqualTo("member removed: " + bob + " from \"plans\" (" + plans + ")\n");
            assertThat(as("bob", "sync").out())
                    .containsPattern("^synced: .*; the store holds 0 artifacts\n")
                    .endsWith("channels: 0 you can read\n");
            assertThat(as("bob", "list").out()).isEqualTo("0 artifacts\n");
            assertThat(as("bob", "channels").out()).isEqualTo("0 channels\n");

            theMistakesANewUserMade(plans);
        } finally {
            assertThat(as("alice", "channel", "delete", "plans").out()).isEqualTo("channel deleted: " + plans + "\n");
        }
        assertThat(as("alice", "channels").out()).isEqualTo("0 channels\n");
    }

    /** Each one line with the buzz-sync: prefix and its exit code, a usage error with a hint that exists. */
    private void theMistakesANewUserMade(String plans) {
        assertThat(failing("alice", ExitCode.USAGE, "edit", "plans", "--name", "garden")
                        .err())
                .startsWith("buzz-sync: unknown command 'edit' (buzz-sync takes keygen, ")
                .endsWith("\nTry 'buzz-sync --help'.\n");
        assertThat(failing("alice", ExitCode.USAGE, "channel", "edit", "plans", "--colour", "green")
                        .err())
                .isEqualTo("buzz-sync: unknown option '--colour' for buzz-sync channel edit\n"
                        + "Try 'buzz-sync channel edit --help'.\n");

        // docs/client.md's "--unlisted true", and back; then a second "plans" makes the name ambiguous.
        Matcher open = Pattern.compile("^channel created: \"plans\" \\((" + UUID + ")\\), open; you are its owner\n$")
                .matcher(as("alice", "channel", "create", "--name", "plans").out());
        assertThat(open.matches()).isTrue();
        String other = open.group(1);
        try {
            assertThat(as("alice", "channel", "edit", other, "--unlisted", "true")
                            .out())
                    .isEqualTo("channel edited: \"plans\" (" + other + "), open, unlisted\n");
            assertThat(as("alice", "channel", "edit", other, "--unlisted", "false")
                            .out())
                    .isEqualTo("channel edited: \"plans\" (" + other + "), open\n");
            assertThat(failing("alice", ExitCode.USAGE, "member", "add", "plans", "0".repeat(63) + "1")
                            .err())
                    .startsWith("buzz-sync: CHANNEL: 2 channels are named 'plans': ")
                    .contains("'plans' (" + plans + ", private)", "'plans' (" + other + ", open)")
                    .contains("; give the id of the one you mean\nTry 'buzz-sync member add --help'.\n");
        } finally {
            assertThat(as("alice", "channel", "delete", other).out()).isEqualTo("channel deleted: " + other + "\n");
        }

        Outcome unresolvable = run(
                "channels",
                "--relay",
                "http://no-such-relay.invalid:8080",
                "--key",
                directory.resolve("alice.key").toString(),
                "--store",
                directory.resolve("alice.db").toString());
        assertThat(unresolvable.exit()).isEqualTo(ExitCode.UNAVAILABLE);
        assertThat(unresolvable.err())
                .contains("cannot resolve no-such-relay.invalid")
                .doesNotContain("refused");

        byte[] noise = new byte[32];
        new java.util.Random(40).nextBytes(noise);
        noise[0] = (byte) 0x80;
        try {
            java.nio.file.Files.write(directory.resolve("noise.key"), noise);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        assertThat(failing("noise", ExitCode.LOCAL, "channels").err())
                .contains("is not a key: it holds 32 bytes that are not text; a key file holds one line of 64 hex"
                        + " digits");
    }
}
