package chat.buzz.relay.incremental;

import chat.buzz.relay.database.RawJson;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/** One entry of a delta page or known-ID read: an upsert with the head, or a remove with a reason. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"op", "d", "h", "event", "reason"})
public record Entry(String op, String d, String h, RawJson event, String reason) {

    /** @param eventJson the stored canonical JSON of the signed head, spliced in as it is */
    public static Entry upsert(String d, String channel, RawJson eventJson) {
        return new Entry("upsert", d, channel, eventJson, null);
    }

    public static Entry remove(String d, String reason) {
        return new Entry("remove", d, null, null, reason);
    }

    /** The UTF-8 bytes of the event this entry carries: what a page's byte budget counts. */
    long eventBytes() {
        return event == null ? 0 : event.byteLength();
    }
}
