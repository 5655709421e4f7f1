package chat.buzz.relay.artifact;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Limits;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.events.EventLimits;
import chat.buzz.relay.events.TagReader;
import chat.buzz.relay.events.WriteRejection;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/** The relay-visible part of a artifact revision ({@link chat.buzz.protocol.Kinds#ARTIFACT_REVISION}) (PROTOCOL 3.2), validated. */
record RevisionTags(UUID d, UUID channel, String type, Optional<String> title, Op op, Optional<String> prev) {

    enum Op {
        CREATE,
        UPDATE,
        MOVE,
        DELETE,
        RESTORE;

        String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private static final Set<String> OPS = Set.of("create", "update", "move", "delete", "restore");

    static RevisionTags parse(Event event) {
        TagReader tags = new TagReader(event);
        if (!tags.required(Tags.ARTIFACT_FLAG).equals("1")) {
            throw WriteRejection.invalid("tag ar must be 1");
        }
        UUID d = tags.requiredUuid(Tags.ARTIFACT_ID);
        UUID channel = tags.requiredUuid(Tags.CHANNEL);
        String type = tags.required(Tags.ARTIFACT_TYPE);
        if (type.isEmpty() || EventLimits.utf8Length(type) > Limits.MAX_TYPE_BYTES || !type.contains(".")) {
            throw WriteRejection.invalid("type must be at most " + Limits.MAX_TYPE_BYTES + " bytes and contain a dot");
        }
        String opName = tags.required(Tags.OPERATION);
        if (!OPS.contains(opName)) {
            throw WriteRejection.invalid("op must be create, update, move, delete or restore");
        }
        Op op = Op.valueOf(opName.toUpperCase(java.util.Locale.ROOT));
        Optional<String> title = tags.single(Tags.TITLE);
        if (op == Op.DELETE && title.isPresent()) {
            throw WriteRejection.invalid("a delete carries no title");
        }
        if (op != Op.DELETE) {
            String value = title.orElseThrow(() -> WriteRejection.invalid("missing title tag"));
            int bytes = EventLimits.utf8Length(value);
            if (bytes < 1 || bytes > Limits.MAX_TITLE_BYTES) {
                throw WriteRejection.invalid("title must be 1.." + Limits.MAX_TITLE_BYTES + " bytes");
            }
        }
        Optional<String> prev = tags.eventId(Tags.PREVIOUS_REVISION);
        if (op == Op.CREATE && prev.isPresent()) {
            throw WriteRejection.invalid("a create has no prev");
        }
        if (op != Op.CREATE && prev.isEmpty()) {
            throw WriteRejection.invalid("missing prev tag");
        }
        return new RevisionTags(d, channel, type, title, op, prev);
    }
}
