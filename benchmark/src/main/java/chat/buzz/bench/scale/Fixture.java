package chat.buzz.bench.scale;

import chat.buzz.bench.SignedCalls;
import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.IOException;
import java.io.StringReader;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
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
import org.postgresql.PGConnection;

/**
 * Seeds a fresh relay database with the reference shape by COPY, writing the rows the relay's own write
 * path writes for a 9007 (events, channels, the owner's channel_members row), for each membership
 * (channel_members; the span comes from migration 0079's trigger, which COPY fires) and for each
 * 45010 create (events, artifact_heads, artifact_revisions). Every event is really signed (BIP-340).
 * Memberships other than the owner's are written without their 9000 events: nothing measured reads
 * those events, and signing 600,000 of them at 100,000 artifacts would take longer than the run.
 *
 * <p>Every stamp is two hours old, so the overlap has long passed for the seeded rows.
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
        Rows events = new Rows();
        Rows channelRows = new Rows();
        Rows members = new Rows();
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
                    tags(create),
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
                                        List.of(
                                                List.of(Tags.ARTIFACT_FLAG, "1"),
                                                List.of(Tags.ARTIFACT_ID, d.toString()),
                                                List.of(Tags.CHANNEL, channel.toString()),
                                                List.of(Tags.ARTIFACT_TYPE, "task.v1"),
                                                List.of(Tags.OPERATION, "create"),
                                                List.of(Tags.TITLE, "seeded task " + c + "." + k)),
                                        content));
                    });
                })
                .toList();
        Rows events = new Rows();
        Rows heads = new Rows();
        Rows revisions = new Rows();
        for (Planned p : planned) {
            UUID channel = grant ? grantChannels.get(p.channel()) : channels.get(p.channel());
            String stamp = nextStamp();
            events.add(
                    p.event().id(),
                    communityId,
                    p.event().pubkey(),
                    Kinds.ARTIFACT_REVISION,
                    p.event().createdAt(),
                    tags(p.event()),
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

    private static String tags(Event event) {
        try {
            return SignedCalls.JSON.writeValueAsString(event.tags());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Plain text that makes a seeded revision about {@code eventBytes} long, as in the reference run. */
    private static String contentFor(int eventBytes) {
        NostrKeys probe = NostrKeys.generate();
        int overhead = probe.sign(
                        Kinds.ARTIFACT_REVISION,
                        Instant.now().getEpochSecond(),
                        List.of(
                                List.of(Tags.ARTIFACT_FLAG, "1"),
                                List.of(Tags.ARTIFACT_ID, UUID.randomUUID().toString()),
                                List.of(Tags.CHANNEL, UUID.randomUUID().toString()),
                                List.of(Tags.ARTIFACT_TYPE, "task.v1"),
                                List.of(Tags.OPERATION, "create"),
                                List.of(Tags.TITLE, "seeded task 1000.0")),
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

    private static List<NostrKeys> keys(int count) {
        return IntStream.range(0, count).mapToObj(i -> NostrKeys.generate()).toList();
    }

    /** Rows in COPY's text format. */
    private static final class Rows {
        private final StringBuilder text = new StringBuilder();

        void add(Object... values) {
            for (int i = 0; i < values.length; i++) {
                if (i > 0) {
                    text.append('\t');
                }
                String value = String.valueOf(values[i]);
                for (int k = 0; k < value.length(); k++) {
                    char c = value.charAt(k);
                    switch (c) {
                        case '\\' -> text.append("\\\\");
                        case '\t' -> text.append("\\t");
                        case '\n' -> text.append("\\n");
                        case '\r' -> text.append("\\r");
                        default -> text.append(c);
                    }
                }
            }
            text.append('\n');
        }

        void copy(Connection db, String tableAndColumns) throws SQLException, IOException {
            db.unwrap(PGConnection.class)
                    .getCopyAPI()
                    .copyIn("COPY " + tableAndColumns + " FROM STDIN", new StringReader(text.toString()));
            text.setLength(0);
        }
    }

    /** Moves every stamp of the seeded and measured rows two hours back, triggers off: the overlap has passed. */
    static void ageEverything(String jdbcUrl) throws SQLException {
        try (Connection db = DriverManager.getConnection(jdbcUrl);
                Statement statement = db.createStatement()) {
            db.setAutoCommit(false);
            statement.execute("SET LOCAL session_replication_role = replica");
            for (String update : AGE_STATEMENTS) {
                statement.execute(update);
            }
            db.commit();
        }
    }

    private static final List<String> AGE_STATEMENTS = List.of(
            "UPDATE artifact_heads SET modified_at = modified_at - interval '2 hours', created_at = created_at - interval '2 hours' WHERE modified_at > now() - interval '1 hour'",
            "UPDATE artifact_revisions SET modified_at = modified_at - interval '2 hours', accepted_at = accepted_at - interval '2 hours' WHERE modified_at > now() - interval '1 hour'",
            "UPDATE events SET received_at = received_at - interval '2 hours' WHERE received_at > now() - interval '1 hour'",
            "UPDATE channel_members SET sync_modified_at = sync_modified_at - interval '2 hours', added_at = added_at - interval '2 hours' WHERE sync_modified_at > now() - interval '1 hour'",
            "UPDATE channel_membership_spans SET started_at = started_at - interval '2 hours' WHERE started_at > now() - interval '1 hour'");

    /** The SQL floor: the reader's set's event JSON, by one plain query. */
    static final String FLOOR_QUERY = """
            SELECT e.json FROM artifact_heads h
            JOIN events e ON e.id = h.head_event_id
            JOIN channel_members m ON m.channel_id = h.channel_id AND m.pubkey = ? AND m.removed_at IS NULL
            WHERE h.community_id = ? AND NOT h.deleted AND e.redacted_at IS NULL
            """;

    /** @return {rows, bytes, nanos} of the floor query. */
    static long[] floor(String jdbcUrl, String reader, long community) throws SQLException {
        try (Connection db = DriverManager.getConnection(jdbcUrl);
                PreparedStatement query = db.prepareStatement(FLOOR_QUERY)) {
            db.setAutoCommit(false);
            query.setFetchSize(1_000);
            query.setString(1, reader);
            query.setLong(2, community);
            long begin = System.nanoTime();
            long rows = 0;
            long bytes = 0;
            try (ResultSet result = query.executeQuery()) {
                while (result.next()) {
                    bytes += result.getBytes(1).length;
                    rows++;
                }
            }
            return new long[] {rows, bytes, System.nanoTime() - begin};
        }
    }
}
