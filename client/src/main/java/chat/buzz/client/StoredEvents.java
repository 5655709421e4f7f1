package chat.buzz.client;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Tags;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Re-checks what the store holds event by event: the digest of PROTOCOL 4.4a covers ids and head ids
 * only, so an event edited in the file (a title, a tag) still matches it. Each stored head must parse,
 * carry its own id and a valid BIP-340 signature, and name the artifact and channel it is filed under.
 */
public final class StoredEvents {
    private StoredEvents() {}

    /** One stored artifact whose event fails a check, and which check. */
    public record Damage(String d, String problem) {}

    public static List<Damage> audit(Store store) {
        List<Damage> damaged = new ArrayList<>();
        for (StoredArtifact artifact : store.list(Optional.empty())) {
            problem(artifact).ifPresent(problem -> damaged.add(new Damage(artifact.d(), problem)));
        }
        return damaged;
    }

    /** Replaces each damaged event with the relay's answer to a known-ID read; the damage left afterwards. */
    public static List<Damage> repair(SyncClient client, List<Damage> damaged) {
        List<String> ids = damaged.stream().map(Damage::d).toList();
        client.revalidate(ids);
        return audit(client.store());
    }

    private static Optional<String> problem(StoredArtifact artifact) {
        Event event;
        try {
            event = Event.parse(artifact.eventJson());
        } catch (RuntimeException notAnEvent) {
            return Optional.of("not a valid event: " + notAnEvent.getMessage());
        }
        if (!event.hasValidId()) {
            return Optional.of("its id does not match its content");
        }
        if (!event.hasValidSignature()) {
            return Optional.of("its signature is not valid");
        }
        if (!event.id().equals(artifact.headId())) {
            return Optional.of("filed under head " + artifact.headId() + " but is " + event.id());
        }
        if (!event.tag(Tags.ARTIFACT_ID).map(artifact.d()::equals).orElse(false)
                || !Objects.equals(event.tag(Tags.CHANNEL).orElse(null), artifact.h())) {
            return Optional.of("its d or h tag differs from where the store files it");
        }
        return Optional.empty();
    }
}
