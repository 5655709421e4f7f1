package chat.buzz.relay.client;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.client.cli.BuzzSync;
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
                    as("alice", "write", "--channel", plans, "--type", "task.basic", "--title", "Water the plants");
            Matcher artifact = Pattern.compile("^create accepted: artifact (" + UUID + "), head " + HEX64
                            + "\nconfirmed by a known-ID read; the store holds it\n$")
                    .matcher(written.out());
            assertThat(artifact.matches()).as(written.out()).isTrue();
            String d = artifact.group(1);
            assertThat(as("alice", "channels").out()).isEqualTo(plans + "  private  owner   plans\n1 channels\n");

            assertThat(as("bob", "sync").out())
                    .matches("synced: bootstrap; 1 pages, 0 upserts, 0 removes; the store holds 0 artifacts\n"
                            + "self-check: store matches the relay: 0 artifacts, digest " + HEX64 + "\n"
                            + "channels: 0 you can read\n");
            assertThat(as("bob", "list").out()).isEqualTo("0 artifacts\n");

            assertThat(as("alice", "member", "add", plans, bob).out())
                    .isEqualTo("member added: " + bob + " to \"plans\" (" + plans + ") as member\n");
            assertThat(as("bob", "sync").out())
                    .containsPattern("^synced: .*; the store holds 1 artifacts\n")
                    .endsWith("channels: 1 you can read\n");
            assertThat(as("bob", "list").out())
                    .isEqualTo(d + "  " + plans + " (plans)  task.basic  Water the plants\n1 artifacts\n");
            assertThat(as("bob", "channels").out()).isEqualTo(plans + "  private  member  plans\n1 channels\n");
            assertThat(as("bob", "whoami").out())
                    .contains("channels    1 you can read\n  " + plans + "  private  member  plans  1 artifacts\n");

            assertThat(as("alice", "member", "remove", plans, bob).out())
                    .isEqualTo("member removed: " + bob + " from \"plans\" (" + plans + ")\n");
            assertThat(as("bob", "sync").out())
                    .containsPattern("^synced: .*; the store holds 0 artifacts\n")
                    .endsWith("channels: 0 you can read\n");
            assertThat(as("bob", "list").out()).isEqualTo("0 artifacts\n");
            assertThat(as("bob", "channels").out()).isEqualTo("0 channels\n");
        } finally {
            assertThat(as("alice", "channel", "delete", plans).out()).isEqualTo("channel deleted: " + plans + "\n");
        }
        assertThat(as("alice", "channels").out()).isEqualTo("0 channels\n");
    }
}
