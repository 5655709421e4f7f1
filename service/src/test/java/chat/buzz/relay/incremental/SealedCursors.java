package chat.buzz.relay.incremental;

import chat.buzz.protocol.Hex;
import chat.buzz.relay.BuzzRelayConfiguration;
import chat.buzz.relay.incremental.Cursor.Position;
import chat.buzz.relay.testing.TestRelay;
import java.util.List;
import java.util.stream.Stream;

/**
 * Opens the cursors a test relay seals, with the relay's own codec and key, so a test can see what a
 * reader would learn if the seal were broken: every artifact id a cursor names.
 */
final class SealedCursors {
    private final CursorCodec codec;

    private SealedCursors(CursorCodec codec) {
        this.codec = codec;
    }

    static SealedCursors of(TestRelay relay) {
        BuzzRelayConfiguration configuration = relay.configuration();
        byte[] relayKey = Hex.decode(configuration.getRelay().getSecretKey(), 32);
        return new SealedCursors(IncrementalFeature.cursors(configuration.getIncremental(), relayKey));
    }

    Cursor open(String text) {
        return codec.decode(text);
    }

    /** The artifact ids in the cursor's position and in every judged step, as lowercase text. */
    List<String> artifactIds(String text) {
        Cursor cursor = open(text);
        return Stream.concat(
                        Stream.of(cursor.position()),
                        Stream.concat(cursor.prior().steps().stream(), cursor.judged().steps().stream())
                                .map(JudgedRows.Step::after))
                .map(Position::d)
                .filter(d -> !d.equals(Position.LOWEST_ID) && !d.equals(Position.HIGHEST_ID))
                .map(Object::toString)
                .distinct()
                .toList();
    }
}
