package chat.buzz.relay.access;

import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/** Builds a {@link ChannelAccess} inside a write transaction, taking the channel lock that write needs. */
public final class AccessLookup {
    public enum Lock {
        SHARED,
        EXCLUSIVE
    }

    private AccessLookup() {}

    public static ChannelAccess lookup(Handle handle, long communityId, UUID channel, String pubkey, Lock lock) {
        AccessDao dao = AccessDao.on(handle);
        Optional<ChannelFacts> facts = dao.channelLocked(channel, communityId, lock);
        Optional<Role> role = facts.isEmpty()
                ? Optional.empty()
                : dao.activeRole(channel, pubkey).flatMap(Role::fromWire);
        return new ChannelAccess(facts, role);
    }

    public static Optional<Role> activeRole(Handle handle, UUID channel, String pubkey) {
        return AccessDao.on(handle).activeRole(channel, pubkey).flatMap(Role::fromWire);
    }
}
