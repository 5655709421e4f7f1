package chat.buzz.relay.sync;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Hex;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.access.Judge;
import chat.buzz.relay.identity.RelayConfig;
import chat.buzz.relay.identity.RelayIdentity;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Removal markers: signed by the relay, saying what the verdict says, signed once per second for what they say. */
class RemovalEventsTest {
    private final NostrKeys relayKeys = NostrKeys.generate();
    private final SteppingClock clock = new SteppingClock(Instant.parse("2026-12-04T02:00:00.100Z"));
    private final RemovalEvents removals = new RemovalEvents(identity(relayKeys), clock);
    private final UUID d = UUID.randomUUID();
    private final UUID channel = UUID.randomUUID();

    @Test
    void aMarkerIsARelaySignedRemovalThatSaysTheVerdict() {
        Event marker = Event.parse(removals.removal(d, Judge.Verdict.remove(Judge.Reason.MOVED, channel)));
        marker.verify();
        assertThat(marker.pubkey()).isEqualTo(relayKeys.publicKeyHex());
        assertThat(marker.kind()).isEqualTo(Kinds.REMOVAL_MARKER);
        assertThat(marker.createdAt()).isEqualTo(clock.instant().getEpochSecond());
        assertThat(marker.tags())
                .contains(java.util.List.of("d", d.toString()))
                .contains(java.util.List.of("h", channel.toString()));

        Event unnamed = Event.parse(removals.removal(d, Judge.Verdict.remove(Judge.Reason.UNAVAILABLE, null)));
        assertThat(unnamed.tags()).noneMatch(tag -> tag.get(0).equals("h"));
    }

    @Test
    void everySubscriberToldTheSameThingInTheSameSecondGetsOneSignature() {
        Judge.Verdict unavailable = Judge.Verdict.remove(Judge.Reason.UNAVAILABLE, null);
        String first = removals.removal(d, unavailable);
        clock.advanceMillis(800);
        assertThat(removals.removal(d, unavailable)).isEqualTo(first);

        // Anything else it says is another marker: the reason, the channel, the artifact, the second.
        assertThat(removals.removal(d, Judge.Verdict.remove(Judge.Reason.DELETED, null)))
                .isNotEqualTo(first);
        assertThat(removals.removal(d, Judge.Verdict.remove(Judge.Reason.MOVED, channel)))
                .isNotEqualTo(first);
        assertThat(removals.removal(UUID.randomUUID(), unavailable)).isNotEqualTo(first);
        clock.advanceMillis(200);
        String nextSecond = removals.removal(d, unavailable);
        assertThat(nextSecond).isNotEqualTo(first);
        Event later = Event.parse(nextSecond);
        later.verify();
        assertThat(later.createdAt()).isEqualTo(Event.parse(first).createdAt() + 1);
    }

    private static RelayIdentity identity(NostrKeys keys) {
        RelayConfig config = new RelayConfig();
        config.setSecretKey(Hex.encode(keys.secretKey()));
        return RelayIdentity.load(config);
    }

    private static final class SteppingClock extends Clock {
        private Instant now;

        SteppingClock(Instant start) {
            this.now = start;
        }

        void advanceMillis(long millis) {
            now = now.plusMillis(millis);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
