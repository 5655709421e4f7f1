package chat.buzz.relay.incremental;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.incremental.GateFlipReaders.Incremental;
import chat.buzz.relay.incremental.GateFlipReaders.Judge;
import chat.buzz.relay.incremental.GateFlipReaders.Live;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.LeakOracle;
import chat.buzz.relay.testing.Model;
import chat.buzz.relay.testing.ModelWriter;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Flipping gate scoped_policy either way loses and leaks nothing. Two instances on one database, gates
 * incremental and sync on; neither rereads flags on its own during the test, so a flip made through one
 * instance's console applies there at once and on the other only when that one's own console changes
 * the flag: a "during" window that lasts exactly as long as the test needs, shown to exist by the flip's
 * confirmation (the other instance unconfirmed) and by NIP-11 {@code policy_changes} disagreeing.
 *
 * <p>In each direction a policy change is made just before the flip, one during it through the flipped
 * instance and one through the instance that has not applied it yet, and one after both confirmed, each
 * of another kind on another channel of three artifacts, beside untouched channels. After each, on both
 * instances, members and non-members, unscoped and scoped, over incremental sync and live WebSocket
 * sync: everything received passes the leak oracle, no page names an artifact twice, each ends holding
 * exactly D, and the resets are exactly the change's: a change the writing instance delivered as a reset
 * (stamp advanced) resets every reader of the community on both instances once, one delivered as
 * entries resets nobody. Each change is followed by an edit of one of its channel's heads through the
 * other instance. Slow incremental readers read one page of four entries after each change (the
 * members' first bootstrap done beforehand, the others' not), so their
 * sessions span changes and flips: a page after a change as a reset is a reset unless a bootstrap is
 * running (that one finishes, and the next session resets), no other page is; they are held to
 * exactly D when a last session ends.
 */
@IntegrationTest
class PolicyChangeAcrossGateFlipTest {
    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final int ARTIFACTS = 3;

    @RegisterExtension
    @Order(1)
    static final TestRelay FIRST = TestRelay.create(
            ConfigOverride.config("gates.incremental", "true"),
            ConfigOverride.config("gates.sync", "true"),
            ConfigOverride.config("gates.scopedPolicy", "false"),
            // No instance rereads flags while the test runs: only a flag change through its own console does.
            ConfigOverride.config("admin.flagRefresh", "1 hour"),
            // A flip waits this long for the other instance, which by design does not confirm it.
            ConfigOverride.config("admin.gateConfirmationBound", "3 seconds"));

    @RegisterExtension
    @Order(2)
    static final TestRelay SECOND = TestRelay.anotherInstance(FIRST);

    private final Model model = new Model();
    private final ModelWriter writer = new ModelWriter(FIRST.client(), model);
    private final ModelWriter throughSecond = new ModelWriter(SECOND.client(), model);
    private final Judge judge = new Judge(model, new LeakOracle(model), writer);
    private final NostrKeys owner = NostrKeys.generate();
    private final GateFlipWindow window = new GateFlipWindow(FIRST, SECOND);
    private final List<Incremental> incremental = new ArrayList<>();
    private final List<Live> live = new ArrayList<>();
    /** The slow readers whose first session is read whole before the changes begin. */
    private final Set<Incremental> bootstrappedFirst = new HashSet<>();

    private UUID markers;

    /** One policy change: when it is made, through which instance, and how that instance delivers it. */
    private record Change(String when, TestRelay through, boolean asEntries, String what, UUID channel) {
        String describe() {
            return what + " " + when + " through " + name(through) + " (as " + (asEntries ? "entries" : "reset") + ")";
        }
    }

    @Test
    void aChangeJustBeforeDuringAndAfterAFlipEitherWayLosesNothingLeaksNothingAndResetsExactlyWhenStamped() {
        writer.name(owner, "owner");
        markers = writer.channel(owner, true, false, false);
        UUID madePrivate = channelWithArtifacts(true, false, false);
        UUID madeOpen = channelWithArtifacts(false, false, false);
        UUID madeUnlisted = channelWithArtifacts(true, false, false);
        UUID givenTtl = channelWithArtifacts(true, false, false);
        UUID openDeleted = channelWithArtifacts(true, false, false);
        UUID madeListed = channelWithArtifacts(true, true, false);
        UUID ttlCleared = channelWithArtifacts(true, false, true);
        UUID privateDeleted = channelWithArtifacts(false, false, false);
        UUID untouchedOpen = channelWithArtifacts(true, false, false);
        UUID untouchedPrivate = channelWithArtifacts(false, false, false);
        UUID untouchedUnlisted = channelWithArtifacts(true, true, false);
        List<UUID> all = List.of(
                madePrivate,
                madeOpen,
                madeUnlisted,
                givenTtl,
                openDeleted,
                madeListed,
                ttlCleared,
                privateDeleted,
                untouchedOpen,
                untouchedPrivate,
                untouchedUnlisted);
        // A scope may not name a channel with a TTL (PROTOCOL 4.2), so the two TTL channels stay out of it.
        Set<UUID> scope = new LinkedHashSet<>(all);
        scope.remove(givenTtl);
        scope.remove(ttlCleared);
        scope.add(markers);
        try {
            for (TestRelay instance : List.of(FIRST, SECOND)) {
                for (boolean member : List.of(true, false)) {
                    for (boolean scoped : List.of(false, true)) {
                        addReaders(instance, member, scoped ? scope : Set.of(), all);
                    }
                    addSlowReader(instance, member, all);
                }
            }
            quietPoint(null);

            // Off to on, flipped through the first instance; the second applies it late.
            make(
                    new Change("before the flip on", SECOND, false, "made private", madePrivate),
                    w -> w.visibility(owner, madePrivate, false));
            window.flip(FIRST, SECOND, true);
            make(
                    new Change("during the flip on", FIRST, true, "made open", madeOpen),
                    w -> w.visibility(owner, madeOpen, true));
            make(
                    new Change("during the flip on", SECOND, false, "unlisted", madeUnlisted),
                    w -> w.unlisted(owner, madeUnlisted, true));
            window.confirmLate(SECOND, true);
            make(new Change("after the flip on", SECOND, true, "TTL set", givenTtl), w -> w.ttl(owner, givenTtl, true));

            // On to off, flipped through the second instance; the first applies it late.
            make(
                    new Change("before the flip off", FIRST, true, "open channel deleted", openDeleted),
                    w -> w.deleteChannel(owner, openDeleted));
            window.flip(SECOND, FIRST, false);
            make(
                    new Change("during the flip off", SECOND, false, "listed", madeListed),
                    w -> w.unlisted(owner, madeListed, false));
            make(
                    new Change("during the flip off", FIRST, true, "TTL cleared", ttlCleared),
                    w -> w.ttl(owner, ttlCleared, false));
            window.confirmLate(FIRST, false);
            make(
                    new Change("after the flip off", FIRST, false, "private channel deleted", privateDeleted),
                    w -> w.deleteChannel(owner, privateDeleted));

            // The slow readers' sessions spanned every change and both flips: they end with exactly D too.
            List<String> problems = new ArrayList<>();
            incremental.stream()
                    .filter(reader -> reader.slow)
                    .forEach(reader -> problems.addAll(reader.finish("the end of sessions spanning both flips")));
            assertThat(problems).isEmpty();
        } finally {
            live.forEach(Live::close);
        }
    }

    /** A channel with the settings given, three artifacts, and nobody but its owner as member yet. */
    private UUID channelWithArtifacts(boolean open, boolean unlisted, boolean ttl) {
        UUID channel = writer.channel(owner, open, unlisted, ttl);
        for (int i = 0; i < ARTIFACTS; i++) {
            writer.create(owner, channel);
        }
        return channel;
    }

    /** One incremental reader and one live subscriber of the kind on the instance, each with a key of its own. */
    private void addReaders(TestRelay instance, boolean member, Set<UUID> scope, List<UUID> channels) {
        String kind =
                (member ? "member" : "non-member") + (scope.isEmpty() ? "" : ", scoped") + " on " + name(instance);
        NostrKeys incrementalKeys = NostrKeys.generate();
        NostrKeys liveKeys = NostrKeys.generate();
        writer.name(incrementalKeys, "incremental " + kind);
        writer.name(liveKeys, "live " + kind);
        if (member) {
            for (UUID channel : channels) {
                writer.add(owner, channel, incrementalKeys);
                writer.add(owner, channel, liveKeys);
            }
        }
        incremental.add(new Incremental(
                instance, SealedCursors.of(FIRST), incrementalKeys, scope, false, "incremental " + kind, judge));
        live.add(new Live(instance, liveKeys, scope, "live " + kind, judge));
    }

    /**
     * An incremental reader that reads one small page after each change, unscoped; a member finishes its
     * first bootstrap before the changes begin, so its pages start as deltas, a non-member's as a bootstrap.
     */
    private void addSlowReader(TestRelay instance, boolean member, List<UUID> channels) {
        String label = "slow incremental " + (member ? "member" : "non-member") + " on " + name(instance);
        NostrKeys keys = NostrKeys.generate();
        writer.name(keys, label);
        if (member) {
            channels.forEach(channel -> writer.add(owner, channel, keys));
        }
        Incremental reader = new Incremental(instance, SealedCursors.of(FIRST), keys, Set.of(), true, label, judge);
        incremental.add(reader);
        if (member) {
            bootstrappedFirst.add(reader);
        }
    }

    /**
     * Makes the change through its instance, checks how the database recorded it and whether the policy
     * stamp moved, then judges every reader.
     */
    private void make(Change change, Consumer<ModelWriter> write) {
        assertThat(GateFlipWindow.policyChanges(change.through()))
                .as("NIP-11 of %s just before %s", name(change.through()), change.describe())
                .isEqualTo(GateFlipWindow.delivery(change.asEntries()));
        String stamp = policyStamp(FIRST);
        writer.note("-- " + change.describe());
        write.accept(change.through() == FIRST ? writer : throughSecond);
        assertThat(recordedAsEntries(change.channel()))
                .as("channel_settings_history.as_entries of %s", change.describe())
                .isEqualTo(change.asEntries());
        for (TestRelay instance : List.of(FIRST, SECOND)) {
            assertThat(policyStamp(instance))
                    .as("the community's policy stamp on %s after %s", name(instance), change.describe())
                    .matches(now -> now.equals(stamp) == change.asEntries());
        }
        // A head edited right after its channel's policy changed, through the other instance.
        if (!model.channels.get(change.channel()).deleted) {
            UUID edited = model.artifacts.values().stream()
                    .filter(artifact -> artifact.channel.equals(change.channel()))
                    .findFirst()
                    .orElseThrow()
                    .d;
            (change.through() == FIRST ? throughSecond : writer).edit(owner, edited);
        }
        quietPoint(change);
    }

    /**
     * Every live subscriber reaches a marker written after the change (and, when the change reset, has
     * been closed with sync_reset and subscribed again), then every reader is judged.
     */
    private void quietPoint(Change change) {
        String step = change == null ? "the first snapshot and bootstrap" : change.describe();
        int resets = change == null || change.asEntries() ? 0 : 1;
        UUID marker = writer.create(owner, markers);
        String head = model.artifacts.get(marker).head;
        for (Live subscriber : live) {
            await().atMost(PATIENCE)
                    .alias(subscriber.label + " reaching the marker after " + step)
                    .until(() -> subscriber.reached(marker.toString(), head)
                            && subscriber.resetsSinceQuietPoint() >= resets);
        }
        List<String> problems = new ArrayList<>();
        live.forEach(subscriber -> problems.addAll(subscriber.quietPoint(resets, step)));
        for (Incremental reader : incremental) {
            if (!reader.slow || (change == null && bootstrappedFirst.contains(reader))) {
                problems.addAll(reader.session(resets, step));
                continue;
            }
            if (resets > 0) {
                reader.stampAdvanced();
            }
            problems.addAll(reader.onePage(step));
        }
        assertThat(problems).as("after %s", step).isEmpty();
    }

    private String policyStamp(TestRelay instance) {
        return new SyncingClient(instance.client(), owner, List.of())
                .knownIdsReply(List.of(UUID.randomUUID().toString()))
                .get("policy")
                .asText();
    }

    private static boolean recordedAsEntries(UUID channel) {
        return FIRST.jdbi()
                .withHandle(h -> h.createQuery(
                                "SELECT as_entries FROM channel_settings_history WHERE channel_id = ? ORDER BY id DESC LIMIT 1")
                        .bind(0, channel)
                        .mapTo(Boolean.class)
                        .one());
    }

    private static String name(TestRelay instance) {
        return instance == FIRST ? "FIRST" : "SECOND";
    }
}
