package chat.buzz.relay.testing;

import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.Model.Artifact;
import chat.buzz.relay.testing.Model.Channel;
import chat.buzz.relay.testing.Model.View;
import chat.buzz.relay.testing.Model.Window;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Judges everything a reader receives (delta responses, error bodies, WebSocket frames) against the
 * {@link Model}: every channel, artifact and revision id in it must be one the reader could read in its
 * current {@link Window}, or one that was delivered to that reader before; a removal may only name an
 * artifact that was once in the view's D; an upsert or EVENT carries a head that was in the view's D.
 * Each check returns what went wrong, so a test can print it with its own story.
 */
public final class LeakOracle {
    private static final Pattern UUID_TEXT =
            Pattern.compile("(?<![0-9a-f])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![0-9a-f])");
    private static final Pattern EVENT_ID_TEXT = Pattern.compile("(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])");

    private final Model model;
    private final Function<String, List<String>> cursorIds;
    private final Map<String, Set<String>> delivered = new HashMap<>();

    public LeakOracle(Model model) {
        this(model, cursor -> List.of());
    }

    /**
     * @param cursorIds opens a cursor with the relay's key and lists the artifact ids inside it: those are
     *                  judged like ids in the clear, as if the seal were broken
     */
    public LeakOracle(Model model, Function<String, List<String>> cursorIds) {
        this.model = model;
        this.cursorIds = cursorIds;
    }

    /** A 200 delta page, a known-ID answer or an error body of POST /query, as {@code view} received it. */
    public List<String> checkQueryAnswer(View view, JsonNode body) {
        List<String> problems = new ArrayList<>();
        Set<String> exempt = new HashSet<>();
        // A known-ID read has no cursor; it may confirm a readable head that is not discoverable (PROTOCOL 4.3).
        boolean knownIds = !body.has("cursor");
        for (JsonNode entry : body.path("entries")) {
            String d = entry.path("d").asText();
            switch (entry.path("op").asText()) {
                case "upsert" -> {
                    JsonNode event = entry.path("event");
                    exempt.addAll(tagValues(event, Tags.PREVIOUS_REVISION));
                    if (knownIds) {
                        checkReadable(view, event, problems);
                    } else {
                        checkHead(view, event, entry.path("h").asText(), "upsert", problems);
                    }
                }
                case "remove" ->
                    checkRemoval(view, d, null, entry.path("reason").asText(), "remove", problems);
                default -> problems.add("unknown entry " + entry);
            }
        }
        scan(view, body.toString(), exempt, problems);
        for (JsonNode entry : body.path("entries")) {
            if (entry.path("op").asText().equals("upsert")) {
                remember(view, entry.path("event"));
            }
        }
        if (body.path("cursor").isTextual()) {
            List<String> inCursor = new ArrayList<>();
            scan(view, String.join(" ", cursorIds.apply(body.path("cursor").asText())), Set.of(), inCursor);
            inCursor.forEach(problem -> problems.add("the sealed cursor " + problem));
        }
        return problems;
    }

    /** One WebSocket message ({@code ["EVENT", sub, event]}, CLOSED, NOTICE, OK, ...) as {@code view} received it. */
    public List<String> checkFrame(View view, JsonNode frame) {
        List<String> problems = new ArrayList<>();
        Set<String> exempt = new HashSet<>();
        JsonNode event = frame.path(2);
        boolean isEvent = frame.path(0).asText().equals("EVENT");
        if (isEvent && event.path("kind").asInt() == Kinds.ARTIFACT_REVISION) {
            exempt.addAll(tagValues(event, Tags.PREVIOUS_REVISION));
            checkHead(view, event, tag(event, Tags.CHANNEL), "EVENT", problems);
        } else if (isEvent && event.path("kind").asInt() == Kinds.REMOVAL_MARKER) {
            exempt.add(event.path("id").asText());
            checkRemoval(
                    view,
                    tag(event, Tags.ARTIFACT_ID),
                    tag(event, Tags.CHANNEL),
                    tag(event, Tags.REMOVAL_REASON),
                    "removal marker",
                    problems);
        } else if (isEvent) {
            problems.add("an event of kind " + event.path("kind") + " in sync: " + frame);
        }
        scan(view, frame.toString(), exempt, problems);
        if (isEvent && event.path("kind").asInt() == Kinds.ARTIFACT_REVISION) {
            remember(view, event);
        }
        return problems;
    }

    /**
     * A channel-metadata answer (PROTOCOL 4.6) read at a quiet point, so judged against the model's state now:
     * for a broad listing ({@code named} null) exactly the channels the reader discovers, with {@code #d} exactly
     * the named ones it can read; each with its three events, its flags, its owner as the only admin and its
     * active members. An extra channel is a leak; a missing one, a reader that cannot find its channel.
     */
    public List<String> checkChannelMetadata(String reader, JsonNode answer, Set<UUID> named) {
        List<String> problems = new ArrayList<>();
        Map<Integer, Set<UUID>> listed = new HashMap<>();
        for (JsonNode event : answer) {
            int kind = event.path("kind").asInt();
            Channel channel = model.channel(String.valueOf(tag(event, Tags.ARTIFACT_ID)));
            if (channel == null) {
                problems.add("channel metadata of a channel the model does not know: " + event);
            } else if (!listed.computeIfAbsent(kind, k -> new HashSet<>()).add(channel.id)) {
                problems.add("two events of kind " + kind + " for channel " + channel.id);
            } else {
                checkChannelEvent(channel, kind, event, problems);
            }
        }
        Set<UUID> expected = new HashSet<>();
        for (Channel channel : model.channels.values()) {
            if (named == null
                    ? channel.discoverableBy(reader, Set.of())
                    : named.contains(channel.id) && channel.readableBy(reader)) {
                expected.add(channel.id);
            }
        }
        for (int kind : List.of(Kinds.CHANNEL_METADATA, Kinds.CHANNEL_ADMINS, Kinds.CHANNEL_MEMBERS)) {
            Set<UUID> extra = new HashSet<>(listed.getOrDefault(kind, Set.of()));
            extra.removeAll(expected);
            extra.forEach(id -> problems.add("kind " + kind + " names channel " + id + " that the reader "
                    + (model.channels.get(id).readableBy(reader) ? "does not discover" : "cannot read")));
            expected.stream()
                    .filter(id -> !listed.getOrDefault(kind, Set.of()).contains(id))
                    .forEach(id -> problems.add("kind " + kind + " leaves out channel " + id));
        }
        return problems;
    }

    private static void checkChannelEvent(Channel channel, int kind, JsonNode event, List<String> problems) {
        Set<List<String>> tags = new HashSet<>();
        event.path("tags")
                .forEach(tag -> tags.add(java.util.stream.StreamSupport.stream(tag.spliterator(), false)
                        .map(JsonNode::asText)
                        .toList()));
        tags.remove(List.of(Tags.ARTIFACT_ID, channel.id.toString()));
        Set<List<String>> expected = new HashSet<>();
        switch (kind) {
            case Kinds.CHANNEL_METADATA -> {
                tags.removeIf(tag -> tag.get(0).equals(Tags.CHANNEL_NAME));
                if (!channel.open) {
                    // PROTOCOL 4.6: members only, no join, never shown to others, only members write.
                    expected.add(List.of(Tags.PRIVATE_CHANNEL));
                    expected.add(List.of(Tags.CLOSED_CHANNEL));
                    expected.add(List.of(Tags.HIDDEN_CHANNEL));
                    expected.add(List.of(Tags.RESTRICTED_CHANNEL));
                } else if (channel.unlisted) {
                    expected.add(List.of(Tags.HIDDEN_CHANNEL));
                }
                if (channel.ttl) {
                    expected.add(List.of(Tags.TTL, "3600"));
                }
            }
            case Kinds.CHANNEL_ADMINS -> expected.add(List.of(Tags.MEMBER, channel.owner, "owner"));
            case Kinds.CHANNEL_MEMBERS -> channel.members.forEach(member -> expected.add(List.of(Tags.MEMBER, member)));
            default -> {
                problems.add("an event of kind " + kind + " in a channel-metadata answer: " + event);
                return;
            }
        }
        if (!tags.equals(expected)) {
            problems.add("kind " + kind + " of channel " + channel.id + " has tags " + tags + ", the model says "
                    + expected);
        }
    }

    private void checkHead(View view, JsonNode event, String h, String what, List<String> problems) {
        String d = tag(event, Tags.ARTIFACT_ID);
        String id = event.path("id").asText();
        if (!h.equals(tag(event, Tags.CHANNEL))) {
            problems.add(what + " of " + d + " says h=" + h + " but its event says h=" + tag(event, Tags.CHANNEL));
        }
        if (!model.window(view).discoverable.contains(d + " " + id)) {
            Artifact artifact = model.artifact(d);
            problems.add(what + " of " + d + " with head " + id + " in channel " + h + " was never in D of this view"
                    + (artifact == null
                            ? " (unknown artifact)"
                            : " (model head " + artifact.head + " in " + artifact.channel
                                    + (artifact.live() ? "" : ", not live") + ")"));
        }
    }

    private void checkReadable(View view, JsonNode event, List<String> problems) {
        if (!model.window(view).heads.contains(event.path("id").asText())) {
            problems.add("known-ID upsert of " + tag(event, Tags.ARTIFACT_ID) + " with head "
                    + event.path("id").asText() + " that the reader cannot read");
        }
    }

    /** A removal tells the reader that d existed: fine only if the reader could once have held it. */
    private void checkRemoval(View view, String d, String h, String reason, String what, List<String> problems) {
        Window window = model.window(view);
        if (!model.everDiscoverable(view, d) && !deliveredTo(view, d)) {
            problems.add(what + " of " + d + " that this view could never have held");
        }
        if (h != null && !window.channelsInD.contains(UUID.fromString(h))) {
            problems.add(what + " of " + d + " names channel " + h + " that was not in the reader's D");
        }
        Artifact artifact = model.artifact(d);
        if (artifact == null) {
            return;
        }
        // Judged at some state since the window opened: the artifact may have been restored and moved since.
        if (reason.equals("deleted") && !window.deletedWhereReadable.contains(artifact.d)) {
            problems.add(what + " of " + d + " says deleted although it was never deleted in a channel the reader"
                    + " could read (now in " + artifact.channel + ")");
        }
        if (reason.equals("moved") && artifact.leftChannels.stream().noneMatch(window.channels::contains)) {
            problems.add(what + " of " + d + " says moved although the reader could read none of the channels it left");
        }
    }

    /** Any id anywhere in the text (error messages and notices included) must be one the reader may know. */
    private void scan(View view, String text, Set<String> exempt, List<String> problems) {
        Window window = model.window(view);
        Matcher uuids = UUID_TEXT.matcher(text);
        while (uuids.find()) {
            String id = uuids.group();
            if (deliveredTo(view, id)) {
                continue;
            }
            Channel channel = model.channel(id);
            if (channel != null && !window.channels.contains(channel.id)) {
                problems.add("names channel " + id + " that the reader cannot read");
            }
            Artifact artifact = model.artifact(id);
            if (artifact != null && !window.artifacts.contains(artifact.d) && !model.everDiscoverable(view, id)) {
                problems.add("names artifact " + id + " that the reader cannot read and never could have held");
            }
        }
        Matcher eventIds = EVENT_ID_TEXT.matcher(text);
        while (eventIds.find()) {
            String id = eventIds.group();
            Artifact artifact = model.artifactOfRevision(id);
            if (artifact != null && !exempt.contains(id) && !deliveredTo(view, id) && !window.heads.contains(id)) {
                problems.add("names revision " + id + " of " + artifact.d + " that the reader cannot read");
            }
        }
    }

    private void remember(View view, JsonNode event) {
        Set<String> known = delivered.computeIfAbsent(view.reader(), r -> new HashSet<>());
        known.add(tag(event, Tags.ARTIFACT_ID));
        known.add(tag(event, Tags.CHANNEL));
        known.add(event.path("id").asText());
    }

    private boolean deliveredTo(View view, String id) {
        return delivered.getOrDefault(view.reader(), Set.of()).contains(id);
    }

    private static String tag(JsonNode event, String name) {
        List<String> values = tagValues(event, name);
        return values.isEmpty() ? null : values.get(0);
    }

    private static List<String> tagValues(JsonNode event, String name) {
        List<String> values = new ArrayList<>();
        for (JsonNode tag : event.path("tags")) {
            if (tag.path(0).asText().equals(name) && tag.size() > 1) {
                values.add(tag.path(1).asText());
            }
        }
        return values;
    }
}
