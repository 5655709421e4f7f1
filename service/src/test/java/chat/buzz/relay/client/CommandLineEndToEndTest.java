package chat.buzz.relay.client;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.client.SqliteStore;
import chat.buzz.client.StoredArtifact;
import chat.buzz.client.cli.BuzzSync;
import chat.buzz.protocol.Event;
import chat.buzz.protocol.Hex;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.Nostr;
import chat.buzz.relay.testing.Replies;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every buzz-sync command against the real relay, with the messages and exit codes a person sees; with
 * policy changes as resets here and as entries in {@link CommandLineEndToEndEntriesTest}.
 */
@IntegrationTest
class CommandLineEndToEndTest extends ClientEndToEndFixture {
    record Outcome(int exit, String out, String err) {}

    private Outcome run(String relay, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of(
                "--relay",
                relay,
                "--key",
                directory.resolve("me.key").toString(),
                "--store",
                directory.resolve("me.db").toString()));
        return runRaw(all.toArray(String[]::new));
    }

    private static Outcome runRaw(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = BuzzSync.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Outcome(exit, out.toString(), err.toString());
    }

    private void writeKey() throws Exception {
        Path key = Files.writeString(directory.resolve("me.key"), Hex.encode(reader.secretKey()) + "\n");
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
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

        Outcome whoami = run(relay().baseUrl(), "whoami");
        assertThat(whoami.exit()).as(whoami.err()).isZero();
        assertThat(whoami.out())
                .contains("public key  " + pubkey.group(1), "community   127.0.0.1", "offers      incremental reads");

        Outcome sync = run(relay().baseUrl(), "sync", "--no-progress");
        assertThat(sync.exit()).as(sync.err()).isZero();
        assertThat(sync.out())
                .contains(
                        "synced: bootstrap; 1 pages, 1 upserts, 0 removes; the store holds 1 artifacts",
                        "self-check: store matches the relay: 1 artifacts");

        Outcome created = run(
                relay().baseUrl(), "write", "--channel", open.toString(), "--type", "task.basic", "--title", "first");
        assertThat(created.exit()).as(created.err()).isZero();
        Matcher id = Pattern.compile("create accepted: artifact ([0-9a-f-]{36}), head ([0-9a-f]{64})")
                .matcher(created.out());
        assertThat(id.find()).as(created.out()).isTrue();
        assertThat(created.out()).contains("confirmed by a known-ID read; the store holds it");
        String d = id.group(1);

        Outcome edited = run(relay().baseUrl(), "write", "--id", d, "--title", "second");
        assertThat(edited.exit()).as(edited.err()).isZero();
        assertThat(edited.out()).startsWith("update accepted: artifact " + d);
        Outcome stale = run(relay().baseUrl(), "write", "--id", d, "--title", "third", "--prev", id.group(2));
        assertThat(stale.exit()).isEqualTo(7);
        assertThat(stale.err())
                .contains(
                        "buzz-sync: the relay did not accept the update: conflict:", "run sync, look again, and retry");
        Outcome moved = run(relay().baseUrl(), "write", "--id", d, "--op", "move", "--channel", other.toString());
        assertThat(moved.exit()).as(moved.err()).isZero();

        Outcome get = run(relay().baseUrl(), "get", d);
        assertThat(get.exit()).isZero();
        Event head = Event.parse(get.out().trim());
        assertThat(head.tag(Tags.TITLE)).contains("second");
        assertThat(head.tag(Tags.CHANNEL)).contains(other.toString());
        assertThat(head.hasValidSignature()).isTrue();

        Outcome list = run(relay().baseUrl(), "list", "--channel", open.toString());
        assertThat(list.out()).contains(existing.toString()).doesNotContain(d).contains("1 artifacts");
        JsonNode json = new ObjectMapper()
                .readTree(run(relay().baseUrl(), "list", "--json").out());
        assertThat(json).hasSize(2);

        Outcome deleted = run(relay().baseUrl(), "write", "--id", d, "--op", "delete");
        assertThat(deleted.exit()).as(deleted.err()).isZero();
        assertThat(deleted.out()).contains("the relay now reports it as removed (deleted)");
        Outcome gone = run(relay().baseUrl(), "get", d, "--refresh");
        assertThat(gone.exit()).isEqualTo(8);
        assertThat(gone.err()).contains("the relay has no artifact " + d + " you may read (deleted)");

        Outcome verify = run(relay().baseUrl(), "verify");
        assertThat(verify.exit()).as(verify.err()).isZero();
        assertThat(verify.out())
                .startsWith("stored events: all 1 have a valid id and signature\n")
                .contains("store matches the relay: 1 artifacts");
        Outcome delta = run(relay().baseUrl(), "sync", "--no-progress");
        assertThat(delta.out()).startsWith("synced: delta;");
    }

    @Test
    void whoamiListsTheChannelsTheKeyCanReadAsTextAndJson() throws Exception {
        writeKey();
        UUID open = writer.channel(owner, true, false, false);
        UUID member = writer.channel(owner, false, false, false);
        UUID notMember = writer.channel(owner, false, false, false);
        UUID emptyOpen = writer.channel(owner, true, false, false);
        writer.add(owner, member, reader);
        writer.create(owner, open);
        writer.create(owner, open);
        writer.create(owner, member);
        writer.create(owner, notMember);

        Outcome before = run(relay().baseUrl(), "whoami");
        assertThat(before.out()).contains("channels    3 you can read");
        Outcome json = run(relay().baseUrl(), "whoami", "--sync", "--json");
        assertThat(json.exit()).as(json.err()).isZero();
        JsonNode identity = new ObjectMapper().readTree(json.out());
        assertThat(identity.path("pubkey").asText()).isEqualTo(reader.publicKeyHex());
        assertThat(identity.path("community").path("host").asText()).isEqualTo("127.0.0.1");
        assertThat(identity.path("offers").toString()).isEqualTo("[\"artifacts.incremental\"]");
        assertThat(identity.path("channels_from").asText()).isEqualTo("relay");
        List<String> channels = new ArrayList<>();
        identity.path("channels")
                .forEach(c -> channels.add(c.path("id").asText() + " "
                        + c.path("visibility").asText() + " "
                        + c.path("role").asText() + " " + c.path("artifacts").asInt() + " "
                        + c.path("discoverable").asBoolean()));
        assertThat(channels)
                .as("the empty open channel too, now that the relay lists channels; never the private one it is not in")
                .containsExactlyInAnyOrder(
                        open + " open - 2 true", member + " private member 1 true", emptyOpen + " open - 0 true");
        Outcome text = run(relay().baseUrl(), "whoami");
        assertThat(text.out())
                .contains(
                        "public key  " + reader.publicKeyHex(),
                        "community   127.0.0.1",
                        "channels    3 you can read",
                        "  " + member + "  private  member  ")
                .doesNotContain(notMember.toString());
    }

    @Test
    void syncDrawsAProgressBarThroughALongBootstrapAndEndsWithASummary() throws Exception {
        writeKey();
        UUID open = writer.channel(owner, true, false, false);
        // Heads of about 40 kB: the byte budget of a page (about 4 MiB) cuts the bootstrap into pages of
        // about a hundred, although the client asks for a thousand.
        String body = "x".repeat(40_000);
        for (int i = 0; i < 250; i++) {
            Replies.accepted(relay().client()
                    .publish(owner, Nostr.revision(owner, Nostr.newId(), open, "create", null, "large " + i, body)));
        }
        Outcome sync = run(relay().baseUrl(), "sync", "--progress");
        assertThat(sync.exit()).as(sync.err()).isZero();
        assertThat(sync.err())
                .as("a bar redrawn after each page, then finished on its own line, and no other")
                .doesNotContain("] 0/250")
                .containsPattern("\\r\\[#{1,29} +\\] (9\\d|1\\d\\d|2[0-4]\\d)/250 artifacts\\r")
                .contains("\r[" + "#".repeat(30) + "] 250/250 artifacts\n");
        assertThat(sync.out())
                .containsPattern(
                        "^synced: bootstrap; [3-9] pages, 250 upserts, 0 removes; the store holds" + " 250 artifacts\n")
                .contains("self-check: store matches the relay: 250 artifacts");
        Outcome quiet = run(relay().baseUrl(), "sync", "--no-progress");
        assertThat(quiet.err()).doesNotContain("artifacts");
    }

    /**
     * A channel made private between two syncs: with policy changes as entries buzz-sync reports a
     * delta that removed the channel's artifact, otherwise a policy reset; either way the store is D.
     */
    @Test
    void syncAfterAPolicyChangeSaysHowTheRelayDeliveredIt() throws Exception {
        writeKey();
        UUID kept = writer.channel(owner, true, false, false);
        UUID hidden = writer.channel(owner, true, false, false);
        writer.create(owner, kept);
        writer.create(owner, hidden);
        assertThat(run(relay().baseUrl(), "sync", "--no-progress").out()).contains("the store holds 2 artifacts");
        Replies.accepted(relay().client()
                .publish(owner, Nostr.editChannel(owner, hidden, Nostr.tag(Tags.VISIBILITY, "private"))));
        model.channels.get(hidden).open = false;

        Outcome sync = run(relay().baseUrl(), "sync", "--no-progress");
        assertThat(sync.exit()).as(sync.err()).isZero();
        assertThat(sync.out())
                .startsWith(
                        policyChangesAsEntries()
                                ? "synced: delta; 1 pages, 0 upserts, 1 removes;"
                                : "synced: policy reset, bootstrapped again;")
                .contains("the store holds 1 artifacts");
        if (policyChangesAsEntries()) {
            assertThat(sync.err()).doesNotContain("policy reset");
        }
    }

    @Test
    void syncSaysWhenTheRelayRefusedTheSavedCursor() throws Exception {
        writeKey();
        writer.create(owner, writer.channel(owner, true, false, false));
        assertThat(run(relay().baseUrl(), "sync", "--no-progress").exit()).isZero();
        saveCursor(directory.resolve("me.db"), "not-a-cursor");
        Outcome sync = run(relay().baseUrl(), "sync", "--no-progress");
        assertThat(sync.exit()).as(sync.err()).isZero();
        assertThat(sync.out())
                .startsWith("synced: the relay refused the saved cursor (incremental_invalid_cursor),"
                        + " bootstrapped again; ")
                .contains("the store holds 1 artifacts");
    }

    @Test
    void withoutIncrementalReadsSyncFallsBackAndVerifySaysWhyItCannot() throws Exception {
        writeKey();
        UUID open = writer.channel(owner, true, false, false);
        writer.create(owner, open);
        Outcome sync = run(currentOnly().baseUrl(), "sync", "--no-progress", "--scope", open.toString());
        assertThat(sync.exit()).as(sync.err()).isZero();
        assertThat(sync.out())
                .startsWith("synced: read mode current (the relay offers no incremental reads)")
                .contains("the store holds 1 artifacts");
        Outcome verify = run(currentOnly().baseUrl(), "verify", "--scope", open.toString());
        assertThat(verify.exit()).isEqualTo(4);
        assertThat(verify.err())
                .isEqualTo("buzz-sync: relay answered 503 incremental_unavailable: this relay offers no"
                        + " incremental reads, so no digest to check against (incremental reads are off on this relay;"
                        + " sync falls back to mode current)\n");
    }

    @Test
    void aScopeOfOnlyATtlChannelIsRefusedWithTheChannelNamed() throws Exception {
        writeKey();
        UUID ttl = writer.channel(owner, true, false, true);
        Outcome sync = run(relay().baseUrl(), "sync", "--no-progress", "--scope", ttl.toString());
        assertThat(sync.exit()).isEqualTo(3);
        assertThat(sync.err())
                .contains(
                        "buzz-sync: relay answered 422 incremental_ttl_channel: the only channel of the" + " scope, "
                                + ttl + ", has a TTL",
                        "(channels with a TTL are never synced: remove it from --scope)");
    }

    @Test
    void aRelayThatIsNotThereIsReportedAtOnceInOneLine() throws Exception {
        writeKey();
        Outcome never = run("http://127.0.0.1:1", "get", "0b9c3f5e-4d1e-4bde-8a57-8d2b1c1f6e00", "--refresh");
        assertThat(never.exit()).isEqualTo(4);
        assertThat(never.err())
                .isEqualTo("buzz-sync: cannot reach the relay: POST /query to http://127.0.0.1:1: connection refused"
                        + " (check --relay, that the relay runs, and your network)\n");
    }

    @Test
    void verifyFindsAnEventEditedInTheStoreThatTheDigestCannotSeeAndRepairsIt() throws Exception {
        writeKey();
        UUID open = writer.channel(owner, true, false, false);
        UUID d = writer.create(owner, open);
        assertThat(run(relay().baseUrl(), "sync", "--no-progress").exit()).isZero();
        Path file = directory.resolve("me.db");
        try (SqliteStore store = SqliteStore.open(file)) {
            StoredArtifact held = store.get(d.toString()).orElseThrow();
            store.putRaw(new StoredArtifact(
                    held.d(),
                    held.h(),
                    held.headId(),
                    held.eventJson().replaceFirst("\\[\"title\",\"[^\"]*\"]", "[\"title\",\"edited by hand\"]"),
                    false));
            assertThat(store.get(d.toString()).orElseThrow().eventJson()).contains("edited by hand");
        }

        Outcome report = run(relay().baseUrl(), "verify", "--no-repair");
        assertThat(report.exit()).isEqualTo(6);
        assertThat(report.out())
                .startsWith("stored events: 1 damaged\n  " + d + ": its id does not match its content\n")
                .as("the digest covers ids only: it matches over the damaged event")
                .contains("store matches the relay: 1 artifacts");
        Outcome repaired = run(relay().baseUrl(), "verify", "--repair");
        assertThat(repaired.exit()).as(repaired.err()).isZero();
        assertThat(repaired.out()).contains("stored events: re-read 1 from the relay; 0 still damaged");
        assertThat(Event.parse(run(relay().baseUrl(), "get", d.toString()).out().trim())
                        .hasValidId())
                .isTrue();
        assertThat(run(relay().baseUrl(), "verify").out()).startsWith("stored events: all 1 have a valid id");
    }

    @Test
    void progressIsNotRedrawnWhenStderrIsAFile() throws Exception {
        writeKey();
        UUID open = writer.channel(owner, true, false, false);
        for (int i = 0; i < 120; i++) {
            writer.create(owner, open);
        }
        int exit = CommandLineProcess.run(
                directory, "sync", "--relay", relay().baseUrl(), "--key", "me.key", "--store", "me.db");
        assertThat(exit).as(CommandLineProcess.errors(directory)).isZero();
        assertThat(CommandLineProcess.output(directory)).contains("the store holds 120 artifacts");
        assertThat(CommandLineProcess.errors(directory)).doesNotContain("\r").doesNotContain("/120");
    }
}
