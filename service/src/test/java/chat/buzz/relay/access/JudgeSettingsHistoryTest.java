package chat.buzz.relay.access;

import static chat.buzz.relay.testing.Nostr.tag;
import static chat.buzz.relay.testing.Replies.accepted;
import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.access.Judge.Facts;
import chat.buzz.relay.access.Judge.Reason;
import chat.buzz.relay.access.Judge.Verdict;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.Nostr;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import java.util.List;
import java.util.UUID;
import org.jdbi.v3.core.statement.Query;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The judge over channel settings history (migration 0180, PROTOCOL 4.4): real channels whose
 * visibility, unlisted flag or existence changed after the reader's floor, judged in PostgreSQL by
 * {@link Judge#facts} and {@link Judge#verdictColumns}. For each case the SQL facts are the facts the
 * history implies, the SQL verdict is the verdict {@link Judge#decide} gives for those facts in Java,
 * and both are the verdict the case states.
 */
@IntegrationTest
class JudgeSettingsHistoryTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(
            ConfigOverride.config("gates.incremental", "true"), ConfigOverride.config("gates.scopedPolicy", "true"));

    /** One head judged for one bound reader, as the relay's sync queries join it. */
    private static final String JUDGED = """
            SELECT jf.in_d, jf.could_have_held, jf.told_left, jf.left_readable, jf.deleted_readable, jf.left_nameable,
                   jf.channel_nameable, <verdict>
            FROM artifact_heads a
            JOIN events e ON e.id = a.head_event_id
            JOIN channels c ON c.id = a.channel_id
            LEFT JOIN channels mc ON mc.id = <lastMovedFrom> AND mc.id <> a.channel_id
            <facts>
            WHERE a.d = :d
            """;

    private final RelayClient relay = RELAY.client();
    private final NostrKeys owner = NostrKeys.generate();
    private final NostrKeys member = NostrKeys.generate();
    private final NostrKeys outsider = NostrKeys.generate();

    /** What SQL found and decided for one head and reader. */
    record Judged(Facts facts, Verdict verdict) {}

    @Test
    void wasOpenNowPrivate() {
        long floor = now();
        UUID channel = channel("open");
        UUID d = create(channel);
        edit(channel, tag(Tags.VISIBILITY, "private"));
        Facts held = new Facts(false, false, true, false, false, false, null, null);
        agree(judge(d, outsider, null, floor), held, Verdict.remove(Reason.UNAVAILABLE, null));
        agree(judge(d, outsider, channel, floor), held, Verdict.remove(Reason.UNAVAILABLE, null));
        agree(judge(d, owner, null, floor), inD(), Verdict.UPSERT);
        // A floor after the change: the outsider could not have held it since.
        agree(judge(d, outsider, null, now()), outside(), Verdict.NOTHING);
    }

    @Test
    void wasPrivateNowOpen() {
        long floor = now();
        UUID channel = channel("private");
        UUID d = create(channel);
        UUID deletedWhilePrivate = create(channel);
        delete(deletedWhilePrivate, channel);
        edit(channel, tag(Tags.VISIBILITY, "open"));
        agree(judge(d, outsider, null, floor), inD(), Verdict.UPSERT);
        agree(judge(d, outsider, channel, floor), inD(), Verdict.UPSERT);
        // Live only while private: the outsider never could have held it, so it hears nothing.
        agree(judge(deletedWhilePrivate, outsider, null, floor), outside(), Verdict.NOTHING);
    }

    @Test
    void listedThenUnlisted() {
        long floor = now();
        UUID channel = channel("open");
        add(channel, member);
        UUID d = create(channel);
        edit(channel, tag(Tags.UNLISTED, "true"));
        agree(
                judge(d, outsider, null, floor),
                new Facts(false, false, true, false, false, false, null, null),
                Verdict.remove(Reason.UNAVAILABLE, null));
        agree(judge(d, outsider, channel, floor), inD(), Verdict.UPSERT);
        agree(judge(d, member, null, floor), inD(), Verdict.UPSERT);
    }

    @Test
    void unlistedThenListedThenUnlistedAgain() {
        long floor = now();
        UUID channel = channel("open", tag(Tags.UNLISTED, "true"));
        UUID d = create(channel);
        agree(judge(d, outsider, null, floor), outside(), Verdict.NOTHING);
        edit(channel, tag(Tags.UNLISTED, "false"));
        agree(judge(d, outsider, null, floor), inD(), Verdict.UPSERT);
        long listedFloor = now();
        edit(channel, tag(Tags.UNLISTED, "true"));
        Facts held = new Facts(false, false, true, false, false, false, null, null);
        agree(judge(d, outsider, null, floor), held, Verdict.remove(Reason.UNAVAILABLE, null));
        agree(judge(d, outsider, null, listedFloor), held, Verdict.remove(Reason.UNAVAILABLE, null));
        agree(judge(d, outsider, null, now()), outside(), Verdict.NOTHING);
    }

    @Test
    void deletedChannels() {
        long floor = now();
        UUID open = channel("open");
        UUID secret = channel("private");
        add(secret, member);
        UUID inOpen = create(open);
        UUID inSecret = create(secret);
        deleteChannel(open);
        deleteChannel(secret);
        Facts held = new Facts(false, false, true, false, false, false, null, null);
        agree(judge(inOpen, outsider, null, floor), held, Verdict.remove(Reason.UNAVAILABLE, null));
        agree(judge(inOpen, outsider, open, floor), held, Verdict.remove(Reason.UNAVAILABLE, null));
        agree(judge(inSecret, member, null, floor), held, Verdict.remove(Reason.UNAVAILABLE, null));
        agree(judge(inSecret, outsider, null, floor), outside(), Verdict.NOTHING);
    }

    /**
     * Open, private, open again, the head deleted while private: the outsider could have held it in the
     * first open period, can read the channel now, so the reason is deleted and the channel, in its D
     * again, may be named.
     */
    @Test
    void openPrivateOpenWithTheHeadDeletedWhilePrivate() {
        long floor = now();
        UUID channel = channel("open");
        UUID d = create(channel);
        edit(channel, tag(Tags.VISIBILITY, "private"));
        delete(d, channel);
        edit(channel, tag(Tags.VISIBILITY, "open"));
        agree(
                judge(d, outsider, null, floor),
                new Facts(false, false, true, false, false, true, null, channel),
                Verdict.remove(Reason.DELETED, channel));
    }

    private static Facts inD() {
        return new Facts(true, false, false, false, false, false, null, null);
    }

    private static Facts outside() {
        return new Facts(false, false, false, false, false, false, null, null);
    }

    /** SQL found {@code facts}, and SQL, Java and the case all give {@code verdict}. */
    private static void agree(Judged judged, Facts facts, Verdict verdict) {
        assertThat(judged.facts()).as("the facts SQL found").isEqualTo(facts);
        assertThat(Judge.decide(facts)).as("the Java judge").isEqualTo(verdict);
        assertThat(judged.verdict()).as("the SQL judge").isEqualTo(Judge.decide(facts));
    }

    private Judged judge(UUID d, NostrKeys reader, UUID scope, long floorMicros) {
        return RELAY.jdbi().withHandle(handle -> {
            Query query = handle.createQuery(JUDGED)
                    .define("facts", Judge.facts("a", "e", "c", "mc", Judge.Reader.bound(scope != null)))
                    .define("verdict", Judge.verdictColumns("false"))
                    .define("lastMovedFrom", AccessSql.lastMovedFrom("a"))
                    .bind("d", d)
                    .bind("reader", reader.publicKeyHex())
                    .bind("floor", floorMicros);
            if (scope != null) {
                query.bindArray("scope", UUID.class, new Object[] {scope});
            }
            return query.map((rs, ctx) -> new Judged(
                            new Facts(
                                    rs.getBoolean("in_d"),
                                    false,
                                    rs.getBoolean("could_have_held"),
                                    rs.getBoolean("told_left"),
                                    rs.getBoolean("left_readable"),
                                    rs.getBoolean("deleted_readable"),
                                    rs.getObject("left_nameable", UUID.class),
                                    rs.getObject("channel_nameable", UUID.class)),
                            Verdict.of(
                                    rs.getString("verdict"),
                                    rs.getString("reason"),
                                    rs.getObject("named", UUID.class))))
                    .one();
        });
    }

    /** The database's clock in microseconds: a floor before (or after) what follows. */
    private static long now() {
        return RELAY.jdbi()
                .withHandle(handle -> handle.createQuery(
                                "SELECT CAST(extract(epoch FROM clock_timestamp()) * 1000000 AS bigint)")
                        .mapTo(Long.class)
                        .one());
    }

    @SafeVarargs
    private UUID channel(String visibility, List<String>... extra) {
        UUID channel = Nostr.newId();
        accepted(relay.publish(owner, Nostr.createChannel(owner, channel, visibility, extra)));
        return channel;
    }

    @SafeVarargs
    private void edit(UUID channel, List<String>... changes) {
        accepted(relay.publish(owner, Nostr.editChannel(owner, channel, changes)));
    }

    private void deleteChannel(UUID channel) {
        accepted(relay.publish(
                owner, Nostr.sign(owner, Kinds.DELETE_CHANNEL, List.of(tag(Tags.CHANNEL, channel.toString())), "")));
    }

    private void add(UUID channel, NostrKeys who) {
        accepted(relay.publish(owner, Nostr.membership(owner, Kinds.ADD_MEMBER, channel, who.publicKeyHex(), null)));
    }

    private final java.util.Map<UUID, String> heads = new java.util.HashMap<>();

    private UUID create(UUID channel) {
        UUID d = Nostr.newId();
        Event created = Nostr.revision(owner, d, channel, "create", null, "judged");
        accepted(relay.publish(owner, created));
        heads.put(d, created.id());
        return d;
    }

    private void delete(UUID d, UUID channel) {
        Event deleted = Nostr.revision(owner, d, channel, "delete", heads.get(d), null);
        accepted(relay.publish(owner, deleted));
        heads.put(d, deleted.id());
    }
}
