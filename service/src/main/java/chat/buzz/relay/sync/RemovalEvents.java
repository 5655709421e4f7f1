package chat.buzz.relay.sync;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.access.Judge;
import chat.buzz.relay.identity.RelayIdentity;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The relay-signed removal marker ({@link Kinds#REMOVAL_MARKER}) that tells a live subscriber an artifact left its set.
 * What it names, channel (only one in the reader's D now, PROTOCOL 5) and reason (PROTOCOL 4.1), is
 * {@link Judge}'s to decide.
 *
 * <p>A change that takes an artifact from many subscribers at once (a channel made private, a delete)
 * tells each of them the same thing in the same second, so the marker is signed once per second for
 * what it says and shared: a signature costs far more than the frame that carries it.
 */
final class RemovalEvents {
    /** Markers kept for one second at most; past this many, further ones that second are signed each time. */
    private static final int MOST_PER_SECOND = 10_000;

    private final RelayIdentity relay;
    private final Clock clock;
    private final AtomicReference<SignedThisSecond> recent =
            new AtomicReference<>(new SignedThisSecond(Long.MIN_VALUE));

    RemovalEvents(RelayIdentity relay, Clock clock) {
        this.relay = relay;
        this.clock = clock;
    }

    /** What a marker says: everything but its time, which the second it is signed in fixes. */
    private record Said(UUID d, UUID channel, String reason) {}

    private record SignedThisSecond(long second, Map<Said, String> markers) {
        SignedThisSecond(long second) {
            this(second, new ConcurrentHashMap<>());
        }
    }

    /** The marker of a {@link Judge.Verdict.Kind#REMOVE} verdict: its reason, and its channel when it names one. */
    String removal(UUID d, Judge.Verdict removed) {
        Said said = new Said(d, removed.channelToName(), removed.reason().wire());
        long second = clock.instant().getEpochSecond();
        SignedThisSecond signed = thisSecond(second);
        if (signed == null || signed.markers().size() >= MOST_PER_SECOND) {
            return sign(said, second);
        }
        return signed.markers().computeIfAbsent(said, s -> sign(s, second));
    }

    /** The markers of {@code second}, or null when another thread already moved on to a later one. */
    private SignedThisSecond thisSecond(long second) {
        SignedThisSecond signed = recent.get();
        if (signed.second() < second) {
            SignedThisSecond fresh = new SignedThisSecond(second);
            signed = recent.compareAndSet(signed, fresh) ? fresh : recent.get();
        }
        return signed.second() == second ? signed : null;
    }

    private String sign(Said said, long second) {
        List<List<String>> tags = new ArrayList<>();
        tags.add(List.of(Tags.ARTIFACT_FLAG, "1"));
        tags.add(List.of(Tags.ARTIFACT_ID, said.d().toString()));
        if (said.channel() != null) {
            tags.add(List.of(Tags.CHANNEL, said.channel().toString()));
        }
        tags.add(List.of(Tags.REMOVAL_REASON, said.reason()));
        Event event = relay.keys().sign(Kinds.REMOVAL_MARKER, second, tags, "");
        return event.toJson();
    }
}
