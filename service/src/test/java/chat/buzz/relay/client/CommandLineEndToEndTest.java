package chat.buzz.relay.client;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.client.cli.BuzzSync;
import chat.buzz.protocol.Event;
import chat.buzz.protocol.Hex;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.Model;
import chat.buzz.relay.testing.ModelWriter;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.testing.ConfigOverride;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Every buzz-sync command against the real relay, with the messages and exit codes a person sees. */
@IntegrationTest
class CommandLineEndToEndTest {
    @Order(1)
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(ConfigOverride.config("gates.incremental", "true"));

    @Order(2)
    @RegisterExtension
    static final TestRelay CURRENT_ONLY = TestRelay.anotherInstance(RELAY, ConfigOverride.config("gates.incremental", "false"));

    @TempDir
    Path directory;

    private final Model model = new Model();
    private final ModelWriter writer = new ModelWriter(RELAY.client(), model);
    private final NostrKeys owner = NostrKeys.generate();
    private final NostrKeys me = NostrKeys.generate();

    record Outcome(int exit, String out, String err) {}

    @AfterEach
    void deleteChannels() {
        writer.deleteAllChannels(owner);
    }

    private Outcome run(String relay, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--relay", relay, "--key", directory.resolve("me.key").toString(),
                "--store", directory.resolve("me.db").toString()));
        return runRaw(all.toArray(String[]::new));
    }

    private static Outcome runRaw(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = BuzzSync.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Outcome(exit, out.toString(), err.toString());
    }

    private void writeKey() throws Exception {
        Files.writeString(directory.resolve("me.key"), Hex.encode(me.secretKey()) + "\n");
    }

    @Test
    void fromKeygenToASyncedStoreAndBackThroughWrites() throws Exception {
        Outcome keygen = runRaw("keygen", "--key", directory.resolve("me.key").toString());
        assertThat(keygen.exit()).isZero();
        Matcher pubkey = Pattern.compile("public key ([0-9a-f]{64})").matcher(keygen.out());
        assertThat(pubkey.find()).isTrue();
        UUID open = writer.channel(owner, true, false, false);
        UUID other = writer.channel(owner, true, false, false);
        UUID existing = writer.create(owner, open);

        Outcome whoami = run(RELAY.baseUrl(), "whoami");
        assertThat(whoami.exit()).as(whoami.err()).isZero();
        assertThat(whoami.out()).contains("public key  " + pubkey.group(1), "community   127.0.0.1", "offers      incremental reads");

        Outcome sync = run(RELAY.baseUrl(), "sync", "--no-progress");
        assertThat(sync.exit()).as(sync.err()).isZero();
        assertThat(sync.out()).contains("synced: bootstrap; 1 pages, 1 upserts, 0 removes; the store holds 1 artifacts",
                "self-check: store matches the relay: 1 artifacts");

        Outcome created = run(RELAY.baseUrl(), "write", "--channel", open.toString(), "--type", "task.basic", "--title", "first");
        assertThat(created.exit()).as(created.err()).isZero();
        Matcher id = Pattern.compile("create accepted: artifact ([0-9a-f-]{36}), head ([0-9a-f]{64})").matcher(created.out());
        assertThat(id.find()).as(created.out()).isTrue();
        assertThat(created.out()).contains("confirmed by a known-ID read; the store holds it");
        String d = id.group(1);

        Outcome edited = run(RELAY.baseUrl(), "write", "--id", d, "--title", "second");
        assertThat(edited.exit()).as(edited.err()).isZero();
        assertThat(edited.out()).startsWith("update accepted: artifact " + d);
        Outcome stale = run(RELAY.baseUrl(), "write", "--id", d, "--title", "third", "--prev", id.group(2));
        assertThat(stale.exit()).isEqualTo(7);
        assertThat(stale.err()).contains("buzz-sync: the relay did not accept the update: conflict:",
                "run sync, look again, and retry");
        Outcome moved = run(RELAY.baseUrl(), "write", "--id", d, "--op", "move", "--channel", other.toString());
        assertThat(moved.exit()).as(moved.err()).isZero();

        Outcome get = run(RELAY.baseUrl(), "get", d);
        assertThat(get.exit()).isZero();
        Event head = Event.parse(get.out().trim());
        assertThat(head.tag("title")).contains("second");
        assertThat(head.tag("h")).contains(other.toString());
        assertThat(head.hasValidSignature()).isTrue();

        Outcome list = run(RELAY.baseUrl(), "list", "--channel", open.toString());
        assertThat(list.out()).contains(existing.toString()).doesNotContain(d).contains("1 artifacts");
        JsonNode json = new ObjectMapper().readTree(run(RELAY.baseUrl(), "list", "--json").out());
        assertThat(json).hasSize(2);

        Outcome deleted = run(RELAY.baseUrl(), "write", "--id", d, "--op", "delete");
        assertThat(deleted.exit()).as(deleted.err()).isZero();
        assertThat(deleted.out()).contains("the relay now reports it as removed (deleted)");
        Outcome gone = run(RELAY.baseUrl(), "get", d, "--refresh");
        assertThat(gone.exit()).isEqualTo(8);
        assertThat(gone.err()).contains("the relay has no artifact " + d + " you may read (deleted)");

        Outcome verify = run(RELAY.baseUrl(), "verify");
        assertThat(verify.exit()).as(verify.err()).isZero();
        assertThat(verify.out()).startsWith("store matches the relay: 1 artifacts");
        Outcome delta = run(RELAY.baseUrl(), "sync", "--no-progress");
        assertThat(delta.out()).startsWith("synced: delta;");
    }

    @Test
    void withoutIncrementalReadsSyncFallsBackAndVerifySaysWhyItCannot() throws Exception {
        writeKey();
        UUID open = writer.channel(owner, true, false, false);
        writer.create(owner, open);
        Outcome sync = run(CURRENT_ONLY.baseUrl(), "sync", "--no-progress", "--scope", open.toString());
        assertThat(sync.exit()).as(sync.err()).isZero();
        assertThat(sync.out()).startsWith("synced: read mode current (the relay offers no incremental reads)")
                .contains("the store holds 1 artifacts");
        Outcome verify = run(CURRENT_ONLY.baseUrl(), "verify", "--scope", open.toString());
        assertThat(verify.exit()).isEqualTo(4);
        assertThat(verify.err()).isEqualTo("buzz-sync: relay answered 503 incremental_unavailable: this relay offers no"
                + " incremental reads, so no digest to check against (incremental reads are off on this relay;"
                + " sync falls back to mode current)\n");
    }

    @Test
    void aScopeOfOnlyATtlChannelIsRefusedWithTheChannelNamed() throws Exception {
        writeKey();
        UUID ttl = writer.channel(owner, true, false, true);
        Outcome sync = run(RELAY.baseUrl(), "sync", "--no-progress", "--scope", ttl.toString());
        assertThat(sync.exit()).isEqualTo(3);
        assertThat(sync.err()).contains("buzz-sync: relay answered 422 incremental_ttl_channel: the only channel of the"
                + " scope, " + ttl + ", has a TTL", "(channels with a TTL are never synced: remove it from --scope)");
    }

    @Test
    void aRelayThatIsNotThereIsReportedAfterRetries() throws Exception {
        writeKey();
        Outcome sync = run("http://127.0.0.1:1", "get", "0b9c3f5e-4d1e-4bde-8a57-8d2b1c1f6e00", "--refresh", "--quiet", "--attempts", "2");
        assertThat(sync.exit()).isEqualTo(4);
        assertThat(sync.err()).startsWith("buzz-sync: gave up a known-ID read after 2 attempts; last answer: POST /query to"
                + " http://127.0.0.1:1: ");
    }
}
