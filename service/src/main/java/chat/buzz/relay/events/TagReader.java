package chat.buzz.relay.events;

import chat.buzz.protocol.Event;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/** Reading the tags of an incoming event, with the contract's rejections. */
public final class TagReader {
    private static final Pattern CANONICAL_UUID =
            Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    private static final Pattern HEX32 = Pattern.compile("[0-9a-f]{64}");

    private final Event event;

    public TagReader(Event event) {
        this.event = event;
    }

    /** A tag that may appear at most once, with a value. */
    public Optional<String> single(String name) {
        List<List<String>> matches =
                event.tags().stream().filter(t -> t.get(0).equals(name)).toList();
        if (matches.size() > 1) {
            throw WriteRejection.invalid("tag " + name + " appears more than once");
        }
        if (matches.isEmpty()) {
            return Optional.empty();
        }
        if (matches.get(0).size() < 2) {
            throw WriteRejection.invalid("tag " + name + " has no value");
        }
        return Optional.of(matches.get(0).get(1));
    }

    public String required(String name) {
        return single(name).orElseThrow(() -> WriteRejection.invalid("missing " + name + " tag"));
    }

    public UUID requiredUuid(String name) {
        return uuid(name, required(name));
    }

    public String requiredPubkey(String name) {
        String value = required(name);
        if (!HEX32.matcher(value).matches()) {
            throw WriteRejection.invalid("tag " + name + " must be a 64-character lowercase hex key");
        }
        return value;
    }

    public Optional<String> eventId(String name) {
        Optional<String> value = single(name);
        if (value.isPresent() && !HEX32.matcher(value.get()).matches()) {
            throw WriteRejection.invalid("tag " + name + " must be a 64-character lowercase hex event id");
        }
        return value;
    }

    public Optional<Boolean> flag(String name) {
        return single(name).map(value -> switch (value) {
            case "true" -> true;
            case "false" -> false;
            default -> throw WriteRejection.invalid("tag " + name + " must be true or false");
        });
    }

    public static boolean isCanonicalUuid(String value) {
        return CANONICAL_UUID.matcher(value).matches();
    }

    public static UUID uuid(String name, String value) {
        if (!isCanonicalUuid(value)) {
            throw WriteRejection.invalid("tag " + name + " must be a lowercase hyphenated UUID");
        }
        return UUID.fromString(value);
    }
}
