package chat.buzz.bench.scale;

import chat.buzz.bench.SignedCalls;
import chat.buzz.protocol.Event;
import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.IOException;
import java.io.StringReader;
import java.sql.Connection;
import java.sql.SQLException;
import org.postgresql.PGConnection;

/** Rows in COPY's text format, collected and then copied into one table by the fixture. */
final class CopyRows {
    private final StringBuilder text = new StringBuilder();

    void add(Object... values) {
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                text.append('\t');
            }
            String value = String.valueOf(values[i]);
            for (int k = 0; k < value.length(); k++) {
                char c = value.charAt(k);
                switch (c) {
                    case '\\' -> text.append("\\\\");
                    case '\t' -> text.append("\\t");
                    case '\n' -> text.append("\\n");
                    case '\r' -> text.append("\\r");
                    default -> text.append(c);
                }
            }
        }
        text.append('\n');
    }

    void copy(Connection db, String tableAndColumns) throws SQLException, IOException {
        db.unwrap(PGConnection.class)
                .getCopyAPI()
                .copyIn("COPY " + tableAndColumns + " FROM STDIN", new StringReader(text.toString()));
        text.setLength(0);
    }

    /** An event's tags as the JSON of its {@code events.tags} column. */
    static String tagsOf(Event event) {
        try {
            return SignedCalls.JSON.writeValueAsString(event.tags());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
