package chat.buzz.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TimingsTest {

    @Test
    void percentilesAreNearestRankOverEverySample() {
        Timings timings = new Timings();
        for (int ms = 100; ms >= 1; ms--) {
            timings.add(ms * 1_000_000L);
        }
        assertEquals(100, timings.count());
        assertEquals(50.0, timings.medianMillis());
        assertEquals(99.0, timings.p99Millis());
        assertEquals(100.0, timings.percentileMillis(1.0));
        assertEquals(1.0, timings.percentileMillis(0.0));
    }

    @Test
    void nothingTimedIsNotANumber() {
        assertTrue(Double.isNaN(new Timings().p99Millis()));
    }
}
