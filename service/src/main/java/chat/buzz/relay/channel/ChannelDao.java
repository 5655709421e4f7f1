package chat.buzz.relay.channel;

import java.util.UUID;
import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

/** SQL for channels and memberships. Access decisions are not made here: see the access package. */
public interface ChannelDao {

    /** @return 0 when the id is taken, in any community or deleted */
    @SqlUpdate("""
            INSERT INTO channels (id, community_id, name, visibility, unlisted, ttl_seconds, about, picture, created_by)
            VALUES (:id, :community, :name, :visibility, :unlisted, :ttl, :about, :picture, :createdBy)
            ON CONFLICT (id) DO NOTHING
            """)
    int create(
            @Bind("id") UUID id,
            @Bind("community") long communityId,
            @Bind("name") String name,
            @Bind("visibility") String visibility,
            @Bind("unlisted") boolean unlisted,
            @Bind("ttl") Long ttlSeconds,
            @Bind("about") String about,
            @Bind("picture") String picture,
            @Bind("createdBy") String createdBy);

    @SqlUpdate("""
            UPDATE channels SET name = :name, visibility = :visibility, unlisted = :unlisted, ttl_seconds = :ttl
            WHERE id = :id
            """)
    void update(
            @Bind("id") UUID id,
            @Bind("name") String name,
            @Bind("visibility") String visibility,
            @Bind("unlisted") boolean unlisted,
            @Bind("ttl") Long ttlSeconds);

    /**
     * Tells migration 0180's trigger, for the rest of this transaction, that a policy change is delivered
     * as entries: it records the change without advancing the community's policy stamp.
     */
    @SqlQuery("SELECT set_config('buzz.policy_changes', 'entries', true)")
    String deliverPolicyChangesAsEntries();

    /** False after a rollback to before-incremental, which drops the history and its trigger (migration 0180). */
    @SqlQuery("SELECT to_regclass('public.channel_settings_history') IS NOT NULL")
    boolean settingsHistoryKept();

    /** The history row of the channel's latest policy change, 0 for none; the caller holds the channel row locked. */
    @SqlQuery("SELECT COALESCE(max(id), 0) FROM channel_settings_history WHERE channel_id = :id")
    long latestSettingsChange(@Bind("id") UUID id);

    /** Sets the description and the picture that {@code set} says were given; null clears one. */
    @SqlUpdate("""
            UPDATE channels
            SET about = CASE WHEN :setAbout THEN :about ELSE about END,
                picture = CASE WHEN :setPicture THEN :picture ELSE picture END
            WHERE id = :id
            """)
    void describe(
            @Bind("id") UUID id,
            @Bind("setAbout") boolean setAbout,
            @Bind("about") String about,
            @Bind("setPicture") boolean setPicture,
            @Bind("picture") String picture);

    @SqlQuery("SELECT name FROM channels WHERE id = :id")
    String name(@Bind("id") UUID id);

    @SqlUpdate("UPDATE channels SET deleted_at = clock_timestamp() WHERE id = :id AND deleted_at IS NULL")
    int markDeleted(@Bind("id") UUID id);

    /**
     * Adds, re-adds (reactivating a removed row) or changes the role of a member. The database moves
     * sync_modified_at (migration 0077's trigger) only when removed_at changes, so a role change,
     * which alters nothing a reader can see, leaves it alone.
     */
    @SqlUpdate("""
            INSERT INTO channel_members (channel_id, pubkey, role) VALUES (:channel, :pubkey, :role)
            ON CONFLICT (channel_id, pubkey) DO UPDATE
            SET role = EXCLUDED.role,
                removed_at = NULL,
                added_at = CASE WHEN channel_members.removed_at IS NULL THEN channel_members.added_at
                                ELSE clock_timestamp() END
            """)
    void upsertMember(@Bind("channel") UUID channel, @Bind("pubkey") String pubkey, @Bind("role") String role);

    @SqlUpdate("""
            UPDATE channel_members SET removed_at = clock_timestamp()
            WHERE channel_id = :channel AND pubkey = :pubkey AND removed_at IS NULL
            """)
    int removeMember(@Bind("channel") UUID channel, @Bind("pubkey") String pubkey);

    @SqlQuery("""
            SELECT count(*) FROM channel_members
            WHERE channel_id = :channel AND role = 'owner' AND removed_at IS NULL
            """)
    int activeOwners(@Bind("channel") UUID channel);
}
