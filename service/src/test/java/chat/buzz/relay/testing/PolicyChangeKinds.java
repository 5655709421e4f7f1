package chat.buzz.relay.testing;

import static chat.buzz.relay.testing.Nostr.tag;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The channel policy changes of PROTOCOL 4.4 (visibility, unlisted flag, TTL, deletion) as one table:
 * for each, the channel's settings before it and what each kind of reader must hear of the channel's
 * artifacts when the change is delivered as entries, worked out from D of PROTOCOL 4.2 alone. The
 * incremental and the WebSocket tests read the same table, so both transports answer to one rule.
 */
public final class PolicyChangeKinds {
    private PolicyChangeKinds() {}

    /** A reader of the changed channel: an active member or not, with a scope naming the channel or none. */
    public enum ReaderKind {
        MEMBER(true, false),
        MEMBER_SCOPED(true, true),
        OUTSIDER(false, false),
        OUTSIDER_SCOPED(false, true);

        public final boolean member;
        public final boolean scoped;

        ReaderKind(boolean member, boolean scoped) {
            this.member = member;
            this.scoped = scoped;
        }
    }

    /** What a reader hears of every artifact of the changed channel. */
    public enum Heard {
        /** Its D did not change: no entry, no frame. */
        NOTHING,
        /** Every artifact entered its D: an upsert with the head. */
        UPSERT,
        /** Every artifact left its D: a remove, reason unavailable, no channel named. */
        REMOVE,
        /**
         * The change gives the channel a TTL and the reader's scope names it: an incremental read is now
         * refused (422 incremental_ttl_channel); a live WebSocket subscription held the artifacts, so it
         * hears them removed.
         */
        REFUSED_AFTER,
        /**
         * The channel had a TTL before the change and the reader's scope names it: it could not sync
         * before (422 / CLOSED invalid); after the change a bootstrap or snapshot brings every artifact.
         */
        REFUSED_BEFORE
    }

    /**
     * One kind of policy change.
     *
     * @param name      what the change is, for test names
     * @param open      the channel's visibility before the change
     * @param unlisted  the channel's unlisted flag before the change
     * @param ttl       whether the channel has a TTL before the change
     * @param edit      the tags of the 9002 edit, or null for a 9008 deletion
     * @param heard     what each reader kind hears
     */
    public record Change(
            String name,
            boolean open,
            boolean unlisted,
            boolean ttl,
            List<List<String>> edit,
            Map<ReaderKind, Heard> heard) {
        public Heard heard(ReaderKind reader) {
            return heard.get(reader);
        }

        /** The 9007 that creates the channel with the settings before the change. */
        public Event create(NostrKeys owner, UUID channel) {
            List<List<String>> extra = new ArrayList<>();
            if (unlisted) {
                extra.add(tag(Tags.UNLISTED, "true"));
            }
            if (ttl) {
                extra.add(tag(Tags.TTL, "3600"));
            }
            @SuppressWarnings("unchecked")
            List<String>[] tags = extra.toArray(List[]::new);
            return Nostr.createChannel(owner, channel, open ? "open" : "private", tags);
        }

        /** The 9002 or 9008 that makes the change. */
        public Event change(NostrKeys owner, UUID channel) {
            if (edit == null) {
                return Nostr.sign(owner, Kinds.DELETE_CHANNEL, List.of(tag(Tags.CHANNEL, channel.toString())), "");
            }
            @SuppressWarnings("unchecked")
            List<String>[] tags = edit.toArray(List[]::new);
            return Nostr.editChannel(owner, channel, tags);
        }

        /** Makes the change in a test's {@link Model} of the channel too. */
        public void applyTo(Model model, UUID channel) {
            if (edit == null) {
                model.deleteChannel(channel);
                return;
            }
            Model.Channel settings = model.channels.get(channel);
            for (List<String> tag : edit) {
                switch (tag.get(0)) {
                    case Tags.VISIBILITY -> settings.open = tag.get(1).equals("open");
                    case Tags.UNLISTED -> settings.unlisted = Boolean.parseBoolean(tag.get(1));
                    case Tags.TTL -> settings.ttl = !tag.get(1).equals("0");
                    default -> throw new IllegalArgumentException("not a policy edit: " + tag);
                }
            }
        }

        @Override
        public String toString() {
            return name;
        }
    }

    private static Map<ReaderKind, Heard> heard(
            Heard member, Heard memberScoped, Heard outsider, Heard outsiderScoped) {
        return Map.of(
                ReaderKind.MEMBER, member,
                ReaderKind.MEMBER_SCOPED, memberScoped,
                ReaderKind.OUTSIDER, outsider,
                ReaderKind.OUTSIDER_SCOPED, outsiderScoped);
    }

    /** Every change kind; columns: member, member scoped, outsider, outsider scoped. */
    public static List<Change> all() {
        Heard nothing = Heard.NOTHING;
        Heard upsert = Heard.UPSERT;
        Heard remove = Heard.REMOVE;
        return List.of(
                new Change(
                        "open -> private",
                        true,
                        false,
                        false,
                        List.of(tag(Tags.VISIBILITY, "private")),
                        heard(nothing, nothing, remove, remove)),
                new Change(
                        "private -> open",
                        false,
                        false,
                        false,
                        List.of(tag(Tags.VISIBILITY, "open")),
                        heard(nothing, nothing, upsert, upsert)),
                new Change(
                        "listed -> unlisted",
                        true,
                        false,
                        false,
                        List.of(tag(Tags.UNLISTED, "true")),
                        heard(nothing, nothing, remove, nothing)),
                new Change(
                        "unlisted -> listed",
                        true,
                        true,
                        false,
                        List.of(tag(Tags.UNLISTED, "false")),
                        heard(nothing, nothing, upsert, nothing)),
                new Change(
                        "TTL set",
                        true,
                        false,
                        false,
                        List.of(tag(Tags.TTL, "3600")),
                        heard(remove, Heard.REFUSED_AFTER, remove, Heard.REFUSED_AFTER)),
                new Change(
                        "TTL cleared",
                        true,
                        false,
                        true,
                        List.of(tag(Tags.TTL, "0")),
                        heard(upsert, Heard.REFUSED_BEFORE, upsert, Heard.REFUSED_BEFORE)),
                new Change("open channel deleted", true, false, false, null, heard(remove, remove, remove, remove)),
                new Change(
                        "private channel deleted", false, false, false, null, heard(remove, remove, nothing, nothing)));
    }
}
