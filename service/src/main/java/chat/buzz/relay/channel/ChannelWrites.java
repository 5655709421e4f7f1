package chat.buzz.relay.channel;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.access.AccessLookup;
import chat.buzz.relay.access.ChannelAccess;
import chat.buzz.relay.access.Role;
import chat.buzz.relay.auth.Caller;
import chat.buzz.relay.changes.ChangeNotifications;
import chat.buzz.relay.changes.PolicyChangeRecorder;
import chat.buzz.relay.events.EventHandler;
import chat.buzz.relay.events.TagReader;
import chat.buzz.relay.events.WriteRejection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.jdbi.v3.core.Handle;

/** The NIP-29 channel and membership kinds of PROTOCOL 3.1. */
public final class ChannelWrites {
    private static final String NOT_ACCESSIBLE = "channel not found or not accessible";

    private final PolicyChangeRecorder policyChanges;
    private final PolicyChangeLimit policyChangeLimit;
    private final BooleanSupplier policyChangesAsEntries;

    public ChannelWrites(
            PolicyChangeRecorder policyChanges,
            PolicyChangeLimit policyChangeLimit,
            BooleanSupplier policyChangesAsEntries) {
        this.policyChanges = policyChanges;
        this.policyChangeLimit = policyChangeLimit;
        this.policyChangesAsEntries = policyChangesAsEntries;
    }

    public Map<Integer, EventHandler> handlers() {
        return Map.of(
                Kinds.CREATE_CHANNEL, this::create,
                Kinds.EDIT_CHANNEL, this::edit,
                Kinds.DELETE_CHANNEL, this::delete,
                Kinds.ADD_MEMBER, this::addMember,
                Kinds.REMOVE_MEMBER, this::removeMember,
                Kinds.JOIN, this::join,
                Kinds.LEAVE, this::leave);
    }

    private void create(Handle handle, Caller caller, Event event) {
        TagReader tags = new TagReader(event);
        UUID channel = tags.requiredUuid(Tags.CHANNEL);
        ChannelSettings settings = ChannelSettings.from(tags);
        String name = settings.name().orElseThrow(() -> WriteRejection.invalid("missing name tag"));
        String visibility = settings.visibility().orElseThrow(() -> WriteRejection.invalid("missing visibility tag"));
        boolean unlisted = settings.unlisted().orElse(false);
        if (unlisted && !visibility.equals("open")) {
            throw WriteRejection.invalid("only open channels can be unlisted");
        }
        Long ttl = settings.ttlSeconds().orElse(null);
        if (ttl != null && ttl == 0) {
            throw WriteRejection.invalid("ttl must be positive when creating a channel");
        }
        ChannelDao dao = handle.attach(ChannelDao.class);
        String about = settings.about().map(ChannelSettings::stored).orElse(null);
        String picture = settings.picture().map(ChannelSettings::stored).orElse(null);
        if (dao.create(
                        channel,
                        caller.community().id(),
                        name,
                        visibility,
                        unlisted,
                        ttl,
                        about,
                        picture,
                        caller.pubkey())
                == 0) {
            // PROTOCOL 3: a taken h is a conflict only for a caller who can read that channel; a private
            // channel it is not a member of, or a channel of another community, answers as unknown.
            boolean readable = AccessLookup.lookup(
                            handle, caller.community().id(), channel, caller.pubkey(), AccessLookup.Lock.SHARED)
                    .canRead();
            throw readable ? WriteRejection.conflict("channel already exists") : WriteRejection.blocked(NOT_ACCESSIBLE);
        }
        dao.upsertMember(channel, caller.pubkey(), Role.OWNER.wireName());
        ChangeNotifications.channelChanged(handle, caller.community().id(), channel);
    }

    private void edit(Handle handle, Caller caller, Event event) {
        TagReader tags = new TagReader(event);
        UUID channel = tags.requiredUuid(Tags.CHANNEL);
        ChannelSettings settings = ChannelSettings.from(tags);
        if (settings.isEmpty()) {
            throw WriteRejection.invalid("nothing to edit: give name, visibility, unlisted, ttl, about or picture");
        }
        ChannelAccess access = lockForChange(handle, caller, channel);
        if (!access.canEdit()) {
            throw WriteRejection.blocked("only owners and admins may edit the channel");
        }
        var before = access.channel().orElseThrow();
        ChannelDao dao = handle.attach(ChannelDao.class);
        String name = settings.name().orElseGet(() -> dao.name(channel));
        boolean open = settings.visibility().map("open"::equals).orElse(before.open());
        boolean unlisted = settings.unlisted().orElse(before.unlisted());
        if (!open && settings.unlisted().orElse(false)) {
            throw WriteRejection.invalid("only open channels can be unlisted");
        }
        // A ttl of 0 clears the TTL; Optional.map cannot carry that null, so it is handled outside it.
        Long ttl = settings.ttlSeconds().isEmpty()
                ? before.ttlSeconds()
                : settings.ttlSeconds().get() == 0
                        ? null
                        : settings.ttlSeconds().get();
        List<String> changes = new ArrayList<>();
        if (open != before.open()) {
            changes.add("visibility " + (before.open() ? "open→private" : "private→open"));
        }
        if (unlisted != before.unlisted()) {
            changes.add("unlisted " + before.unlisted() + "→" + unlisted);
        }
        if (!Objects.equals(ttl, before.ttlSeconds())) {
            changes.add("ttl " + describeTtl(before.ttlSeconds()) + "→" + describeTtl(ttl));
        }
        // A name-only or no-op edit advances nothing, so it is neither limited nor counted.
        if (!changes.isEmpty()) {
            policyChangeLimit.admit(handle, caller.community().id(), caller.pubkey());
        }
        // While migration 0077 is applied its trigger (as 0180 rewrote it) records the change and, unless
        // it is delivered as entries, advances the community's policy stamp in this UPDATE when
        // visibility, unlisted or ttl really change (the same test as above). The channel row is already
        // locked exclusively (lockForChange), and artifact writes share-lock it, so a concurrent first
        // artifact write into this channel either committed before the change or commits after it with a
        // later change stamp: it cannot slip past the reset, nor past the entries.
        PolicyChangeRecorder.Delivery delivery = changes.isEmpty() ? null : chooseDelivery(handle);
        dao.update(channel, name, open ? "open" : "private", unlisted, ttl);
        if (settings.about().isPresent() || settings.picture().isPresent()) {
            dao.describe(
                    channel,
                    settings.about().isPresent(),
                    settings.about().map(ChannelSettings::stored).orElse(null),
                    settings.picture().isPresent(),
                    settings.picture().map(ChannelSettings::stored).orElse(null));
        }
        if (!changes.isEmpty()) {
            policyChanges.channelPolicyChanged(
                    handle,
                    caller.community().id(),
                    channel,
                    String.join(", ", changes),
                    caller.pubkey(),
                    delivered(dao, channel, delivery));
        } else {
            // Live channel metadata hears a policy change from the recorder; a rename needs its own notice.
            ChangeNotifications.channelChanged(handle, caller.community().id(), channel);
        }
    }

    private void delete(Handle handle, Caller caller, Event event) {
        UUID channel = new TagReader(event).requiredUuid(Tags.CHANNEL);
        ChannelAccess access = lockForChange(handle, caller, channel);
        if (!access.canDelete()) {
            throw WriteRejection.blocked("only the owner may delete the channel");
        }
        policyChangeLimit.admit(handle, caller.community().id(), caller.pubkey());
        // Migration 0077's trigger records the deletion when deleted_at is newly set, and advances the
        // policy stamp unless the deletion is delivered as entries.
        PolicyChangeRecorder.Delivery delivery = chooseDelivery(handle);
        ChannelDao dao = handle.attach(ChannelDao.class);
        dao.markDeleted(channel);
        policyChanges.channelPolicyChanged(
                handle,
                caller.community().id(),
                channel,
                "channel deleted",
                caller.pubkey(),
                delivered(dao, channel, delivery));
    }

    private void addMember(Handle handle, Caller caller, Event event) {
        TagReader tags = new TagReader(event);
        UUID channel = tags.requiredUuid(Tags.CHANNEL);
        String member = tags.requiredPubkey(Tags.MEMBER);
        Role role = tags.single(Tags.ROLE)
                .map(value -> Role.fromWire(value)
                        .filter(r -> r != Role.OWNER)
                        .orElseThrow(() -> WriteRejection.invalid("role must be admin or member")))
                .orElse(Role.MEMBER);
        ChannelAccess access = lockForChange(handle, caller, channel);
        Optional<Role> current = AccessLookup.activeRole(handle, channel, member);
        if (!access.mayChangeMember(current, Optional.of(role))) {
            throw WriteRejection.blocked(
                    access.canManageMembers()
                            ? "your role may not give or change that membership"
                            : "only owners and admins may add members");
        }
        handle.attach(ChannelDao.class).upsertMember(channel, member, role.wireName());
        if (current.isEmpty()) {
            ChangeNotifications.memberChanged(handle, caller.community().id(), channel, member);
        } else {
            // A new role for an active member changes what it may write, not what anyone reads: its
            // subscriptions are sent nothing (as its incremental reads are not, the membership's sync stamp
            // staying put), and the channel's admins list (39001) changes for metadata subscribers.
            ChangeNotifications.channelChanged(handle, caller.community().id(), channel);
        }
    }

    private void removeMember(Handle handle, Caller caller, Event event) {
        TagReader tags = new TagReader(event);
        UUID channel = tags.requiredUuid(Tags.CHANNEL);
        String member = tags.requiredPubkey(Tags.MEMBER);
        ChannelAccess access = lockForChange(handle, caller, channel);
        if (!access.canManageMembers()) {
            throw WriteRejection.blocked("only owners and admins may remove members");
        }
        Optional<Role> current = AccessLookup.activeRole(handle, channel, member);
        if (current.isEmpty()) {
            throw WriteRejection.invalid("not an active member");
        }
        if (!access.mayChangeMember(current, Optional.empty())) {
            throw WriteRejection.blocked("your role may not remove that member");
        }
        handle.attach(ChannelDao.class).removeMember(channel, member);
        ChangeNotifications.memberChanged(handle, caller.community().id(), channel, member);
    }

    private void join(Handle handle, Caller caller, Event event) {
        UUID channel = new TagReader(event).requiredUuid(Tags.CHANNEL);
        ChannelAccess access = lockForChange(handle, caller, channel);
        if (!access.canJoin()) {
            throw WriteRejection.blocked("private channels are joined by invitation");
        }
        if (access.role().isEmpty()) {
            handle.attach(ChannelDao.class).upsertMember(channel, caller.pubkey(), Role.MEMBER.wireName());
            ChangeNotifications.memberChanged(handle, caller.community().id(), channel, caller.pubkey());
        }
    }

    private void leave(Handle handle, Caller caller, Event event) {
        UUID channel = new TagReader(event).requiredUuid(Tags.CHANNEL);
        ChannelAccess access = lockForChange(handle, caller, channel);
        if (access.role().isEmpty()) {
            throw WriteRejection.invalid("not an active member");
        }
        ChannelDao dao = handle.attach(ChannelDao.class);
        if (access.role().get() == Role.OWNER && dao.activeOwners(channel) <= 1) {
            throw WriteRejection.blocked("the last owner may not leave");
        }
        dao.removeMember(channel, caller.pubkey());
        ChangeNotifications.memberChanged(handle, caller.community().id(), channel, caller.pubkey());
    }

    /**
     * Decides, once per write, how this policy change reaches readers, and tells the database's trigger:
     * with the variable unset (gate off, or an older relay) it advances the stamp, which is always safe,
     * since reads treat every recorded change as entries whether or not a reset follows.
     */
    private PolicyChangeRecorder.Delivery chooseDelivery(Handle handle) {
        ChannelDao dao = handle.attach(ChannelDao.class);
        // Rolled back to before-incremental, the old trigger only advances the stamp.
        if (!policyChangesAsEntries.getAsBoolean() || !dao.settingsHistoryKept()) {
            return PolicyChangeRecorder.Delivery.RESET;
        }
        dao.deliverPolicyChangesAsEntries();
        return PolicyChangeRecorder.Delivery.ENTRIES;
    }

    private static PolicyChangeRecorder.Delivered delivered(
            ChannelDao dao, UUID channel, PolicyChangeRecorder.Delivery delivery) {
        return new PolicyChangeRecorder.Delivered(
                delivery, delivery == PolicyChangeRecorder.Delivery.ENTRIES ? dao.latestSettingsChange(channel) : 0L);
    }

    /** Locks the channel row; a channel the caller cannot read answers as if it did not exist. */
    private static ChannelAccess lockForChange(Handle handle, Caller caller, UUID channel) {
        ChannelAccess access = AccessLookup.lookup(
                handle, caller.community().id(), channel, caller.pubkey(), AccessLookup.Lock.EXCLUSIVE);
        if (!access.canRead()) {
            throw WriteRejection.blocked(NOT_ACCESSIBLE);
        }
        return access;
    }

    private static String describeTtl(Long ttl) {
        return ttl == null ? "none" : ttl + "s";
    }
}
