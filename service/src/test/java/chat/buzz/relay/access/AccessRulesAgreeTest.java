package chat.buzz.relay.access;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.Kinds;
import chat.buzz.relay.database.Database;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.TestDatabases;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.sqlobject.SqlObjectPlugin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Java read rules of {@link ChannelAccess} and the SQL rules of {@link AccessSql} give the same
 * answer for every kind of channel and reader (and so does {@link Judge}'s "channel in D" rule of the
 * channels a removal may name): visibility × unlisted × TTL × deleted × role × removed.
 * Each combination is one channel with one live head in a real database; the Java answer is built by
 * {@link AccessLookup} from the same rows the SQL reads.
 */
@IntegrationTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AccessRulesAgreeTest {
    private static final String READER = "ab".repeat(32);

    /** Every rule at once, for the one head of channel {@code :channel}. */
    private static final String SQL_ANSWERS = """
            SELECT <readable> AS readable,
                   <discoverable> AS discoverable,
                   <discoverableInScope> AS discoverable_in_scope,
                   <readableById> AS readable_by_id,
                   <liveHead> AND <currentBroad> AS current_broad,
                   <liveHead> AND <currentNamed> AS current_named,
                   <channelInD> AS channel_in_d,
                   <channelInDInScope> AS channel_in_d_in_scope
            FROM artifact_heads a
            JOIN events e ON e.id = a.head_event_id
            JOIN channels c ON c.id = a.channel_id
            WHERE c.id = :channel""";

    private String url;
    private Handle handle;
    private long community;

    record Combination(
            String visibility,
            boolean unlisted,
            boolean ttl,
            boolean deleted,
            Optional<Role> role,
            boolean removed,
            UUID channel) {
        @Override
        public String toString() {
            return visibility + (unlisted ? " unlisted" : "") + (ttl ? " ttl" : "") + (deleted ? " deleted" : "")
                    + ", reader "
                    + role.map(r -> (removed ? "removed " : "") + r.wireName()).orElse("outsider");
        }
    }

    static List<Combination> combinations() {
        List<Combination> all = new ArrayList<>();
        List<Optional<Role>> roles = new ArrayList<>(List.of(Optional.empty()));
        for (Role role : Role.values()) {
            roles.add(Optional.of(role));
        }
        for (String visibility : List.of("open", "private")) {
            for (boolean unlisted : List.of(false, true)) {
                for (boolean ttl : List.of(false, true)) {
                    for (boolean deleted : List.of(false, true)) {
                        for (Optional<Role> role : roles) {
                            for (boolean removed : role.isPresent() ? List.of(false, true) : List.of(false)) {
                                all.add(new Combination(
                                        visibility,
                                        unlisted,
                                        ttl,
                                        deleted,
                                        role,
                                        removed,
                                        UUID.nameUUIDFromBytes((visibility + unlisted + ttl + deleted + role + removed)
                                                .getBytes(java.nio.charset.StandardCharsets.UTF_8))));
                            }
                        }
                    }
                }
            }
        }
        return all;
    }

    @BeforeAll
    void schemaWithEveryCombination() throws Exception {
        url = TestDatabases.fresh();
        Database.migrate(TestDatabases.settings(url), Database.CHANGELOG);
        handle = Jdbi.create(url, TestDatabases.USER, "")
                .installPlugin(new SqlObjectPlugin())
                .open();
        community = handle.createQuery("INSERT INTO communities (name) VALUES ('access.test') RETURNING id")
                .mapTo(Long.class)
                .one();
        for (Combination combination : combinations()) {
            insert(combination);
        }
    }

    @AfterAll
    void dropDatabase() {
        handle.close();
        TestDatabases.drop(url);
    }

    private void insert(Combination c) {
        handle.createUpdate("""
                        INSERT INTO channels (id, community_id, name, visibility, unlisted, ttl_seconds, created_by, deleted_at)
                        VALUES (:id, :community, 'combination', :visibility, :unlisted, :ttl, :owner,
                                CASE WHEN :deleted THEN clock_timestamp() END)""")
                .bind("id", c.channel())
                .bind("community", community)
                .bind("visibility", c.visibility())
                .bind("unlisted", c.unlisted())
                .bind("ttl", c.ttl() ? 60L : null)
                .bind("owner", "cd".repeat(32))
                .bind("deleted", c.deleted())
                .execute();
        c.role()
                .ifPresent(role -> handle.createUpdate("""
                        INSERT INTO channel_members (channel_id, pubkey, role, removed_at)
                        VALUES (:channel, :reader, :role, CASE WHEN :removed THEN clock_timestamp() END)""")
                        .bind("channel", c.channel())
                        .bind("reader", READER)
                        .bind("role", role.wireName())
                        .bind("removed", c.removed())
                        .execute());
        String event = c.channel().toString().replace("-", "").repeat(2);
        handle.createUpdate("""
                        INSERT INTO events (id, community_id, pubkey, kind, created_at, tags, json)
                        VALUES (:id, :community, :author, :kind, 0, '[]', '{}')""")
                .bind("id", event)
                .bind("community", community)
                .bind("author", "cd".repeat(32))
                .bind("kind", Kinds.ARTIFACT_REVISION)
                .execute();
        handle.createUpdate("""
                        INSERT INTO artifact_heads (community_id, d, channel_id, head_event_id, type)
                        VALUES (:community, gen_random_uuid(), :channel, :event, 'task.item')""")
                .bind("community", community)
                .bind("channel", c.channel())
                .bind("event", event)
                .execute();
    }

    record Answers(
            boolean readable,
            boolean discoverable,
            boolean discoverableInScope,
            boolean readableById,
            boolean currentBroad,
            boolean currentNamed,
            boolean channelInD,
            boolean channelInDInScope) {}

    @ParameterizedTest(name = "{0}")
    @MethodSource("combinations")
    void javaAndSqlGiveTheSameAnswer(Combination combination) {
        Answers sql = handle.createQuery(SQL_ANSWERS)
                .define("readable", AccessSql.readable("c"))
                .define("discoverable", AccessSql.discoverableHead("a", "e", "c", false))
                .define("discoverableInScope", AccessSql.discoverableHead("a", "e", "c", true))
                .define("readableById", AccessSql.readableHead("a", "e", "c"))
                .define("liveHead", AccessSql.liveHead("a", "e"))
                .define("currentBroad", AccessSql.currentChannel("c", false))
                .define("currentNamed", AccessSql.currentChannel("c", true))
                .define("channelInD", AccessSql.channelInD("c", false, ReaderTerms.BOUND))
                .define("channelInDInScope", AccessSql.channelInD("c", true, ReaderTerms.BOUND))
                .bind("channel", combination.channel())
                .bind("reader", READER)
                .bindArray("scope", String.class, List.of(combination.channel().toString()))
                .map((rs, ctx) -> new Answers(
                        rs.getBoolean("readable"),
                        rs.getBoolean("discoverable"),
                        rs.getBoolean("discoverable_in_scope"),
                        rs.getBoolean("readable_by_id"),
                        rs.getBoolean("current_broad"),
                        rs.getBoolean("current_named"),
                        rs.getBoolean("channel_in_d"),
                        rs.getBoolean("channel_in_d_in_scope")))
                .one();

        ChannelAccess access =
                AccessLookup.lookup(handle, community, combination.channel(), READER, AccessLookup.Lock.SHARED);
        Answers java = new Answers(
                access.canRead(),
                access.discoverable(false),
                access.discoverable(true),
                access.readableById(),
                access.inCurrentRead(false),
                access.inCurrentRead(true),
                // A removal may name a channel exactly when its artifacts are discovered (PROTOCOL 5).
                access.discoverable(false),
                access.discoverable(true));

        assertThat(java)
                .as("ChannelAccess (Java) against AccessSql (SQL) for %s", combination)
                .isEqualTo(sql);
    }
}
