package chat.buzz.relay.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class BoundedBodyTest {
    @Test
    void aBodyWithinTheLimitIsReturnedWhole() throws IOException {
        byte[] body = "{\"a\":1}".getBytes();
        assertThat(BoundedBody.read(new ByteArrayInputStream(body), body.length))
                .hasValue(body);
    }

    @Test
    void anOversizedBodyIsDrainedSoTheRefusalIsNotLostToAReset() throws IOException {
        ByteArrayInputStream in = new ByteArrayInputStream(new byte[600 * 1024]);
        assertThat(BoundedBody.read(in, 16 * 1024)).isEmpty();
        assertThat(in.available()).isZero();
    }

    @Test
    void drainingStopsAtItsBound() throws IOException {
        int limit = 16 * 1024;
        int extra = 4096;
        ByteArrayInputStream in = new ByteArrayInputStream(new byte[limit + BoundedBody.DRAINED_BEYOND_LIMIT + extra]);
        assertThat(BoundedBody.read(in, limit)).isEmpty();
        assertThat(in.available()).isBetween(1, extra);
    }
}
