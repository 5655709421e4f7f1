package chat.buzz.relay.access;

import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.sqlobject.config.RegisterConstructorMapper;
import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.customizer.Define;
import org.jdbi.v3.sqlobject.statement.SqlQuery;

/**
 * Loads what a write's access decision needs. Channel writes lock the channel row exclusively,
 * artifact writes share-lock it, so a channel edit or deletion and an artifact write on the same
 * channel are ordered, never interleaved.
 */
@RegisterConstructorMapper(ChannelFacts.class)
public interface AccessDao {
    /** The channel row, locked {@code FOR SHARE} or {@code FOR UPDATE} as {@link AccessLookup.Lock} says. */
    @SqlQuery("""
            SELECT id, visibility = 'open' AS open, unlisted, ttl_seconds, deleted_at IS NOT NULL AS deleted
            FROM channels WHERE id = :id AND community_id = :community
            FOR <lock>""")
    Optional<ChannelFacts> channelLocked(
            @Bind("id") UUID channel, @Bind("community") long communityId, @Define("lock") String lockStrength);

    @SqlQuery("SELECT role FROM channel_members WHERE channel_id = :id AND pubkey = :pubkey AND removed_at IS NULL")
    Optional<String> activeRole(@Bind("id") UUID channel, @Bind("pubkey") String pubkey);
}
