package chat.buzz.bench.scale;

import chat.buzz.bench.SignedCalls;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What a timed read needs of an incremental page (each entry's {@code d}, the cursor, {@code more}),
 * taken by one streaming pass that skips every event's content. Building a tree of a page of 1,000
 * heads (~4 MB) would put tens of milliseconds of the load generator's own parsing, on the cores the
 * relay and PostgreSQL share, inside every page measured against the SQL floor, which parses nothing.
 * The {@code current} reload the bootstrap is put against is read the same way ({@link #countEvents}).
 */
record PageSummary(List<String> ids, String cursor, boolean more) {
    static PageSummary of(byte[] body) {
        try (JsonParser parser = SignedCalls.JSON.getFactory().createParser(body)) {
            List<String> ids = new ArrayList<>();
            String cursor = null;
            boolean more = false;
            expect(parser.nextToken(), JsonToken.START_OBJECT);
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                switch (field) {
                    case "entries" -> readIds(parser, value, ids);
                    case "cursor" -> cursor = parser.getValueAsString();
                    case "more" -> more = value == JsonToken.VALUE_TRUE;
                    default -> parser.skipChildren();
                }
            }
            return new PageSummary(ids, cursor, more);
        } catch (IOException unreadable) {
            throw new UncheckedIOException("an incremental page that is not the JSON of PROTOCOL 4.1", unreadable);
        }
    }

    /** How many events a {@code current} answer (a JSON array of events) holds, skipping their content. */
    static int countEvents(byte[] body) {
        try (JsonParser parser = SignedCalls.JSON.getFactory().createParser(body)) {
            expect(parser.nextToken(), JsonToken.START_ARRAY);
            int count = 0;
            while (parser.nextToken() == JsonToken.START_OBJECT) {
                parser.skipChildren();
                count++;
            }
            return count;
        } catch (IOException unreadable) {
            throw new UncheckedIOException("a current answer that is not a JSON array of events", unreadable);
        }
    }

    private static void readIds(JsonParser parser, JsonToken start, List<String> ids) throws IOException {
        expect(start, JsonToken.START_ARRAY);
        while (parser.nextToken() == JsonToken.START_OBJECT) {
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                boolean isId = "d".equals(parser.currentName());
                parser.nextToken();
                if (isId) {
                    ids.add(parser.getText());
                } else {
                    parser.skipChildren();
                }
            }
        }
    }

    private static void expect(JsonToken actual, JsonToken wanted) throws IOException {
        if (actual != wanted) {
            throw new IOException("expected " + wanted + ", found " + actual);
        }
    }
}
