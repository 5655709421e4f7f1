package chat.buzz.relay.access;

import java.util.Optional;

/**
 * Every decision about what one pubkey may do in one channel. The read rules here and the SQL
 * predicates in {@link AccessSql} say the same thing; a test keeps them in step.
 *
 * @param channel the channel, or empty when it does not exist in the caller's community
 * @param role    the caller's active role, or empty when not an active member
 */
public record ChannelAccess(Optional<ChannelFacts> channel, Optional<Role> role) {

    public boolean exists() {
        return channel.isPresent() && !channel.get().deleted();
    }

    /** Open channels: anyone in the community; private: active members only. */
    public boolean canRead() {
        return exists() && (channel.get().open() || role.isPresent());
    }

    /**
     * Whether the channel's artifacts are in the discoverable set D of PROTOCOL 4.2 (head liveness
     * aside): readable and durable, and named by the scope, or, with no scope, private (the reader is
     * a member), open and listed, or unlisted with the reader an active member. SQL: {@link
     * AccessSql#discoverableHead}.
     */
    public boolean discoverable(boolean scopeNamesChannel) {
        return canRead() && durable() && (scopeNamesChannel || !channel.get().unlisted() || role.isPresent());
    }

    /** Whether a known-ID read returns the channel's live heads: readable and durable. SQL: {@link AccessSql#readableHead}. */
    public boolean readableById() {
        return canRead() && durable();
    }

    /**
     * Whether mode "current" returns the channel's live heads: readable when the filter names channels
     * or artifacts, else the discovery rule without a scope, TTL channels included. SQL: {@link
     * AccessSql#currentChannel}.
     */
    public boolean inCurrentRead(boolean namedByFilter) {
        return canRead() && (namedByFilter || !channel.get().unlisted() || role.isPresent());
    }

    /** TTL channels are never part of durable sync. */
    private boolean durable() {
        return channel.get().ttlSeconds() == null;
    }

    public boolean canWrite() {
        return canRead();
    }

    public boolean canEdit() {
        return exists() && role.filter(r -> r.atLeast(Role.ADMIN)).isPresent();
    }

    public boolean canDelete() {
        return exists() && role.filter(r -> r == Role.OWNER).isPresent();
    }

    public boolean canManageMembers() {
        return canEdit();
    }

    /**
     * Whether the caller may give {@code target} the role {@code newRole} (or remove it, when empty).
     * Nobody grants above their own rank, owners are never changed through membership events,
     * and only an owner changes an admin.
     */
    public boolean mayChangeMember(Optional<Role> targetCurrentRole, Optional<Role> newRole) {
        if (!canManageMembers()) {
            return false;
        }
        Role actor = role.orElseThrow();
        if (targetCurrentRole.filter(r -> r == Role.OWNER).isPresent()) {
            return false;
        }
        if (newRole.isPresent() && newRole.get().outranks(actor)) {
            return false;
        }
        return actor == Role.OWNER
                || targetCurrentRole.filter(r -> r.atLeast(actor)).isEmpty();
    }

    public boolean canJoin() {
        return exists() && channel.get().open();
    }

    /** Owners and admins redact anything in their channel; authors their own revisions. */
    public boolean canRedact(String callerPubkey, String eventAuthor) {
        return callerPubkey.equals(eventAuthor) || canEdit();
    }
}
