package chat.buzz.relay.access;

import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/** Builds a {@link ChannelAccess} inside a write transaction, taking the channel lock that write needs. */
public final class AccessLookup {
    public enum Lock {
        SHARED("SHARE"),
        EXCLUSIVE("UPDATE");

        private final String strength;

        Lock(String strength) {
            this.strength = strength;
        }
    }

    private AccessLookup() {}

    public static ChannelAccess lookup(Handle handle, long communityId, UUID channel, String pubkey, Lock lock) {
        AccessDao dao = handle.attach(AccessDao.class);
        Optional<ChannelFacts> facts = dao.channelLocked(channel, communityId, lock.strength);
        Optional<Role> role = facts.isEmpty()
                ? Optional.empty()
                : dao.activeRole(channel, pubkey).flatMap(Role::fromWire);
        return new ChannelAccess(facts, role);
    }

    public static Optional<Role> activeRole(Handle handle, UUID channel, String pubkey) {
        return handle.attach(AccessDao.class).activeRole(channel, pubkey).flatMap(Role::fromWire);
    }
}
