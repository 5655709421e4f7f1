package chat.buzz.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A Nostr event. The constructor only guards against nulls; {@link #parse} and
 * {@link #fromJson} are where untrusted input is checked strictly.
 */
public record Event(
        String id, String pubkey, long createdAt, int kind, List<List<String>> tags, String content, String sig) {

    public Event {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(pubkey, "pubkey");
        Objects.requireNonNull(content, "content");
        Objects.requireNonNull(sig, "sig");
        Objects.requireNonNull(tags, "tags");
        // Tag helpers read index 0, and NIP-01 gives an empty tag no meaning.
        if (tags.stream().anyMatch(List::isEmpty)) {
            throw new IllegalArgumentException("each tag must be non-empty");
        }
        tags = tags.stream().map(List::copyOf).toList();
    }

    public static Event parse(String json) {
        return EventJsonReader.fromJson(EventJsonReader.readTree(json));
    }

    public static Event fromJson(JsonNode node) {
        return EventJsonReader.fromJson(node);
    }

    /** Uses the canonical escaping so stored text is stable and can be spliced into replies verbatim. */
    public String toJson() {
        StringBuilder sb = new StringBuilder(256 + content.length());
        sb.append("{\"id\":");
        CanonicalJson.appendString(sb, id);
        sb.append(",\"pubkey\":");
        CanonicalJson.appendString(sb, pubkey);
        sb.append(",\"created_at\":").append(createdAt);
        sb.append(",\"kind\":").append(kind);
        sb.append(",\"tags\":");
        CanonicalJson.appendTags(sb, tags);
        sb.append(",\"content\":");
        CanonicalJson.appendString(sb, content);
        sb.append(",\"sig\":");
        CanonicalJson.appendString(sb, sig);
        sb.append('}');
        return sb.toString();
    }

    public String computeId() {
        String payload = CanonicalJson.idPayload(pubkey, createdAt, kind, tags, content);
        return Sha256.hex(payload.getBytes(StandardCharsets.UTF_8));
    }

    public boolean hasValidId() {
        return Hex.isLowerHex(id, 32) && id.equals(computeId());
    }

    public boolean hasValidSignature() {
        if (!Hex.isLowerHex(id, 32) || !Hex.isLowerHex(pubkey, 32) || !Hex.isLowerHex(sig, 64)) {
            return false;
        }
        return Bip340.verify(Hex.decode(pubkey, 32), Hex.decode(id, 32), Hex.decode(sig, 64));
    }

    public void verify() {
        if (!hasValidId()) {
            throw new InvalidEventException("id does not match");
        }
        if (!hasValidSignature()) {
            throw new InvalidEventException("bad signature");
        }
    }

    /** Value at index 1 of the first tag named {@code name}; empty when absent or value-less. */
    public Optional<String> tag(String name) {
        for (List<String> tag : tags) {
            if (tag.get(0).equals(name)) {
                return tag.size() > 1 ? Optional.of(tag.get(1)) : Optional.empty();
            }
        }
        return Optional.empty();
    }

    public List<String> tagValues(String name) {
        List<String> values = new ArrayList<>();
        for (List<String> tag : tags) {
            if (tag.get(0).equals(name) && tag.size() > 1) {
                values.add(tag.get(1));
            }
        }
        return List.copyOf(values);
    }

    public int tagCount(String name) {
        int count = 0;
        for (List<String> tag : tags) {
            if (tag.get(0).equals(name)) {
                count++;
            }
        }
        return count;
    }
}
