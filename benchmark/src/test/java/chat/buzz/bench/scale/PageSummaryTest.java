package chat.buzz.bench.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class PageSummaryTest {
    @Test
    void takesEachEntrysIdAndNotTheIdsInsideItsEvent() {
        String page = """
                {"entries":[
                  {"op":"upsert","d":"a1","h":"c1","event":{"id":"e1","tags":[["d","not-this-one"],["h","c1"]],
                    "content":"{\\"d\\":\\"nor this\\"}","nested":{"d":"nor this either"}}},
                  {"op":"remove","d":"b2","reason":"unavailable"}],
                 "cursor":"opaque-cursor","more":true,"policy":"p","reset":false}
                """;

        PageSummary summary = PageSummary.of(page.getBytes(StandardCharsets.UTF_8));

        assertEquals(List.of("a1", "b2"), summary.ids());
        assertEquals("opaque-cursor", summary.cursor());
        assertTrue(summary.more());
    }

    @Test
    void aLastPageInAnyFieldOrderSaysNoMore() {
        String page = """
                {"policy":"p","more":false,"cursor":"c","entries":[]}
                """;

        PageSummary summary = PageSummary.of(page.getBytes(StandardCharsets.UTF_8));

        assertEquals(List.of(), summary.ids());
        assertEquals("c", summary.cursor());
        assertFalse(summary.more());
    }

    @Test
    void aCurrentAnswerIsCountedByItsEventsNotTheirTags() {
        String answer = """
                [{"id":"e1","tags":[["d","a"],{"x":[1,2]}]},{"id":"e2","tags":[]},{"id":"e3"}]
                """;

        assertEquals(3, PageSummary.countEvents(answer.getBytes(StandardCharsets.UTF_8)));
        assertEquals(0, PageSummary.countEvents("[]".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void anErrorBodyIsRefusedNotReadAsAnEmptyPage() {
        assertThrows(
                UncheckedIOException.class,
                () -> PageSummary.of("[\"NOTICE\",\"x\"]".getBytes(StandardCharsets.UTF_8)));
    }
}
