package chat.buzz.bench.scale;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.stream.IntStream;

/**
 * Seeds a fresh relay database with the reference shape by COPY, writing the rows the relay's own write
 * path writes for a 9007 (events, channels, the owner's channel_members row), for each membership
 * (channel_members; the span comes from migration 0079's trigger, which COPY fires) and for each
 * 45010 create (events, artifact_heads, artifact_revisions). Every event is really signed (BIP-340).
 * Memberships other than the owner's are written without their 9000 events: nothing measured reads
 * those events, and signing 600,000 of them at 100,000 artifacts would take longer than the run.
 *
 * <p>Every stamp is two hours old, so the overlap has long passed for the seeded rows. The rows go in
 * through {@link CopyRows}; what a run writes later is aged by {@link Aging}, and {@link SqlFloor} times
 * the plain query a read is compared with.
 */
final class Fixture {
    static final int OWNERS = 10;
    static final int MEMBER_POOL = 200;
    private static final int CHUNK = 2_000;

    final Shape shape;
    final NostrKeys reader;
    final List<NostrKeys> owners = keys(OWNERS);
    final List<NostrKeys> memberPool = keys(MEMBER_POOL);
    final NostrKeys grantOwner = NostrKeys.generate();
    final List<UUID> channels = new ArrayList<>();
    final List<UUID> grantChannels = new ArrayList<>();
    /** Seeded artifacts in the reader's set: d, head event id and its channel's index. */
    final List<UUID> artifactIds = new ArrayList<>();

    final List<String> headIds = new ArrayList<>();
    final List<Integer> artifactChannel = new ArrayList<>();
    private final String content;
    private final Instant base = Instant.now().minusSeconds(7_200);
    private long stampMicros;
    private long communityId;

    Fixture(Shape shape) {
        this(shape, NostrKeys.generate());
    }

    /** @param reader the member of every channel whose set is measured */
    Fixture(Shape shape, NostrKeys reader) {
        this.shape = shape;
        this.reader = reader;
        this.content = contentFor(Shape.EVENT_BYTES);
    }

    NostrKeys ownerOf(int channel) {
        return owners.get(channel % OWNERS);
    }

    long communityId() {
        return communityId;
    }

    /** {@code count} ids of seeded artifacts drawn with {@code random} (repeats possible). */
    List<String> randomArtifactIds(Random random, int count) {
        List<String> ids = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            ids.add(artifactIds.get(random.nextInt(artifactIds.size())).toString());
        }
        return ids;
    }

    void seed(String jdbcUrl) throws SQLException, IOException {
        try (Connection db = DriverManager.getConnection(jdbcUrl)) {
            db.setAutoCommit(false);
            communityId = community(db);
            for (int i = 0; i < shape.channels(); i++) {
                channels.add(UUID.randomUUID());
            }
            for (int i = 0; i < Shape.GRANT_CHANNELS; i++) {
                grantChannels.add(UUID.randomUUID());
            }
            seedChannels(db);
            for (int from = 0; from < shape.channels(); from += CHUNK / Shape.ARTIFACTS_PER_CHANNEL) {
                seedArtifacts(db, from, Math.min(shape.channels(), from + CHUNK / Shape.ARTIFACTS_PER_CHANNEL), false);
            }
            seedArtifacts(db, 0, Shape.GRANT_CHANNELS, true);
            db.commit();
            try (Statement analyze = db.createStatement()) {
                db.setAutoCommit(true);
                analyze.execute("ANALYZE");
            }
        }
    }

    static long community(Connection db) throws SQLException {
        try (Statement statement = db.createStatement();
                ResultSet rows = statement.executeQuery("SELECT id FROM communities WHERE name = 'local'")) {
            if (!rows.next()) {
                throw new IllegalStateException("the relay has not created its community 'local' yet");
            }
            return rows.getLong(1);
        }
    }

    private void seedChannels(Connection db) throws SQLException, IOException {
        int total = shape.channels() + Shape.GRANT_CHANNELS;
        List<Event> creates = IntStream.range(0, total)
                .parallel()
                .mapToObj(i -> {
                    boolean grant = i >= shape.channels();
                    UUID id = grant ? grantChannels.get(i - shape.channels()) : channels.get(i);
                    NostrKeys owner = grant ? grantOwner : ownerOf(i);
                    String visibility = grant || shape.isPrivate(i) ? "private" : "open";
                    return owner.sign(
                            9007,
                            base.getEpochSecond(),
                            List.of(
                                    List.of(Tags.CHANNEL, id.toString()),
                                    List.of(Tags.CHANNEL_NAME, "channel " + i),
                                    List.of(Tags.VISIBILITY, visibility)),
                            "");
                })
                .toList();
        CopyRows events = new CopyRows();
        CopyRows channelRows = new CopyRows();
        CopyRows members = new CopyRows();
        for (int i = 0; i < total; i++) {
            Event create = creates.get(i);
            boolean grant = i >= shape.channels();
            UUID id = grant ? grantChannels.get(i - shape.channels()) : channels.get(i);
            String stamp = nextStamp();
            events.add(
                    create.id(),
                    communityId,
                    create.pubkey(),
                    create.kind(),
                    create.createdAt(),
                    CopyRows.tagsOf(create),
                    create.toJson(),
                    stamp);
            channelRows.add(
                    id,
                    communityId,
                    "channel " + i,
                    grant || shape.isPrivate(i) ? "private" : "open",
                    create.pubkey(),
                    stamp);
            members.add(id, create.pubkey(), "owner", stamp, stamp);
            if (!grant) {
                members.add(id, reader.publicKeyHex(), "member", nextStamp(), stamp);
                int extras = shape.extraMembers(i);
                for (int j = 0; j < extras; j++) {
                    String member = memberPool.get((i * 7 + j) % MEMBER_POOL).publicKeyHex();
                    String added = nextStamp();
                    members.add(id, member, "member", added, added);
                }
            }
        }
        events.copy(db, "events (id, community_id, pubkey, kind, created_at, tags, json, received_at)");
        channelRows.copy(db, "channels (id, community_id, name, visibility, created_by, created_at)");
        members.copy(db, "channel_members (channel_id, pubkey, role, added_at, sync_modified_at)");
    }

    private void seedArtifacts(Connection db, int fromChannel, int toChannel, boolean grant)
            throws SQLException, IOException {
        record Planned(int channel, UUID d, Event event) {}
        List<Planned> planned = IntStream.range(fromChannel, toChannel)
                .parallel()
                .boxed()
                .flatMap(c -> {
                    UUID channel = grant ? grantChannels.get(c) : channels.get(c);
                    NostrKeys author = grant ? grantOwner : ownerOf(c);
                    int count = grant ? Shape.ARTIFACTS_PER_CHANNEL : shape.artifactsIn(c);
                    return IntStream.range(0, count).mapToObj(k -> {
                        UUID d = UUID.randomUUID();
                        return new Planned(
                                c,
                                d,
                                author.sign(
                                        Kinds.ARTIFACT_REVISION,
                                        base.getEpochSecond(),
                                        createTags(d, channel, "seeded task " + c + "." + k),
                                        content));
                    });
                })
                .toList();
        CopyRows events = new CopyRows();
        CopyRows heads = new CopyRows();
        CopyRows revisions = new CopyRows();
        for (Planned p : planned) {
            UUID channel = grant ? grantChannels.get(p.channel()) : channels.get(p.channel());
            String stamp = nextStamp();
            events.add(
                    p.event().id(),
                    communityId,
                    p.event().pubkey(),
                    Kinds.ARTIFACT_REVISION,
                    p.event().createdAt(),
                    CopyRows.tagsOf(p.event()),
                    p.event().toJson(),
                    stamp);
            heads.add(communityId, p.d(), channel, p.event().id(), "task.v1", stamp, stamp);
            revisions.add(
                    p.event().id(),
                    communityId,
                    p.d(),
                    channel,
                    Kinds.ARTIFACT_REVISION,
                    "create",
                    p.event().pubkey(),
                    stamp,
                    stamp);
            if (!grant) {
                artifactIds.add(p.d());
                headIds.add(p.event().id());
                artifactChannel.add(p.channel());
            }
        }
        events.copy(db, "events (id, community_id, pubkey, kind, created_at, tags, json, received_at)");
        heads.copy(db, "artifact_heads (community_id, d, channel_id, head_event_id, type, created_at, modified_at)");
        revisions.copy(
                db,
                "artifact_revisions (event_id, community_id, d, channel_id, kind, op, author, accepted_at,"
                        + " modified_at)");
    }

    /** Distinct, increasing stamps, as clock_timestamp() gives the write path. */
    private String nextStamp() {
        Instant at = base.plusNanos(1_000 * stampMicros++);
        return OffsetDateTime.ofInstant(at, ZoneOffset.UTC).toString();
    }

    /** Plain text that makes a seeded revision about {@code eventBytes} long, as in the reference run. */
    private static String contentFor(int eventBytes) {
        NostrKeys probe = NostrKeys.generate();
        int overhead = probe.sign(
                        Kinds.ARTIFACT_REVISION,
                        Instant.now().getEpochSecond(),
                        createTags(UUID.randomUUID(), UUID.randomUUID(), "seeded task 1000.0"),
                        "")
                .toJson()
                .length();
        StringBuilder text = new StringBuilder();
        String words = "the quick brown fox reviews the plan and notes the next step for the team. ";
        while (text.length() < eventBytes - overhead) {
            text.append(words);
        }
        return text.substring(0, Math.max(0, eventBytes - overhead));
    }

    /** The tags of a seeded artifact's create revision (a 45010 with op=create). */
    private static List<List<String>> createTags(UUID d, UUID channel, String title) {
        return List.of(
                List.of(Tags.ARTIFACT_FLAG, "1"),
                List.of(Tags.ARTIFACT_ID, d.toString()),
                List.of(Tags.CHANNEL, channel.toString()),
                List.of(Tags.ARTIFACT_TYPE, "task.v1"),
                List.of(Tags.OPERATION, "create"),
                List.of(Tags.TITLE, title));
    }

    private static List<NostrKeys> keys(int count) {
        return IntStream.range(0, count).mapToObj(i -> NostrKeys.generate()).toList();
    }
}
