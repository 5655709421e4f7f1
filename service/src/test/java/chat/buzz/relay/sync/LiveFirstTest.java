package chat.buzz.relay.sync;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

/**
 * A herd's snapshot chunks give way to live work: while a live frame waits, the stream workers start
 * one chunk at a time instead of filling every worker, the live frame is sent before the chunks that
 * were waiting, and once it is out the streams widen again. Threads are stand-ins the test runs by
 * hand, so the order is the test's to see, not the scheduler's.
 */
class LiveFirstTest {
    private static final int STREAM_WORKERS = 4;
    private static final int SNAPSHOT_CHUNKS = 20;

    /** A pool whose tasks run only when the test says so, in the order they were handed to it. */
    private static final class HandRun implements Executor {
        private final ArrayDeque<Runnable> handed = new ArrayDeque<>();

        @Override
        public void execute(Runnable task) {
            handed.add(task);
        }

        int handed() {
            return handed.size();
        }

        void runOne() {
            handed.poll().run();
        }

        void runStarted(int tasks) {
            for (int i = 0; i < tasks; i++) {
                runOne();
            }
        }

        void runAll() {
            while (!handed.isEmpty()) {
                runOne();
            }
        }
    }

    private final HandRun streamThreads = new HandRun();
    private final HandRun liveThreads = new HandRun();
    private final LiveDemand demand = new LiveDemand();
    private final FairWorkers stream =
            new FairWorkers(streamThreads, STREAM_WORKERS, STREAM_WORKERS, STREAM_WORKERS, demand);
    private final FairWorkers live = new FairWorkers(liveThreads, 2, 2, 2);
    private final List<String> sent = new ArrayList<>();

    LiveFirstTest() {
        demand.whenIdle(stream::dispatch);
    }

    @Test
    void aLiveFrameIsSentBeforeTheWaitingSnapshotChunksAndTheyNarrowWhileItWaits() {
        for (int i = 0; i < SNAPSHOT_CHUNKS; i++) {
            stream.submit("192.0.2.1", "herd-" + i, () -> sent.add("snapshot"));
        }
        assertThat(streamThreads.handed())
                .as("with no live work the herd has every stream worker")
                .isEqualTo(STREAM_WORKERS);

        live.submit("198.51.100.7", "live", demand.counted(() -> sent.add("live")));
        streamThreads.runStarted(STREAM_WORKERS);
        assertThat(streamThreads.handed())
                .as("as the chunks already started finish, one takes their place, not four")
                .isEqualTo(FairWorkers.FLOOR_WHILE_LIVE_WAITS);
        assertThat(stream.waiting())
                .as("while the live frame waits, no further chunk was started")
                .isEqualTo(SNAPSHOT_CHUNKS - STREAM_WORKERS - FairWorkers.FLOOR_WHILE_LIVE_WAITS);

        liveThreads.runOne();
        assertThat(streamThreads.handed())
                .as("once the live frame is out, the streams widen again")
                .isEqualTo(STREAM_WORKERS);
        streamThreads.runAll();
        assertThat(sent).hasSize(SNAPSHOT_CHUNKS + 1);
        assertThat(sent.indexOf("live"))
                .as("the live frame went out right after the chunks that were running, before every waiting one")
                .isEqualTo(STREAM_WORKERS);
    }

    @Test
    void withoutTheLiveDemandTheHerdKeepsEveryWorkerWhileALiveFrameWaits() {
        FairWorkers unaware = new FairWorkers(streamThreads, STREAM_WORKERS, STREAM_WORKERS, STREAM_WORKERS);
        for (int i = 0; i < SNAPSHOT_CHUNKS; i++) {
            unaware.submit("192.0.2.1", "herd-" + i, () -> sent.add("snapshot"));
        }
        live.submit("198.51.100.7", "live", demand.counted(() -> sent.add("live")));
        streamThreads.runStarted(STREAM_WORKERS);
        assertThat(streamThreads.handed())
                .as("the contrast: a pool that never yields refills every worker")
                .isEqualTo(STREAM_WORKERS);
    }

    @Test
    void aChangeBeingJudgedNarrowsTheStreamsUntilItIsHandedOut() {
        for (int i = 0; i < SNAPSHOT_CHUNKS; i++) {
            stream.submit("192.0.2.1", "herd-" + i, () -> sent.add("snapshot"));
        }
        demand.arrived(); // the fan-out heard a change
        streamThreads.runStarted(STREAM_WORKERS);
        assertThat(streamThreads.handed()).isEqualTo(FairWorkers.FLOOR_WHILE_LIVE_WAITS);
        demand.done(); // handed out
        assertThat(streamThreads.handed()).isEqualTo(STREAM_WORKERS);
    }
}
