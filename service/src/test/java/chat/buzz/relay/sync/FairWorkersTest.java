package chat.buzz.relay.sync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Neither one pubkey nor one address with many pubkeys can take every worker, and owners take turns
 * instead of queueing behind the busiest.
 */
class FairWorkersTest {
    private static final String ADDRESS = "192.0.2.1";
    private final ExecutorService threads = Executors.newFixedThreadPool(3);

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    @Test
    void anOwnerAtItsLimitLeavesWorkersForOthers() throws Exception {
        FairWorkers workers = new FairWorkers(threads, 3, 2, 3);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch hostileStarted = new CountDownLatch(2);
        for (int i = 0; i < 10; i++) {
            workers.submit(ADDRESS, "hostile", () -> {
                hostileStarted.countDown();
                awaitQuietly(release);
            });
        }
        assertThat(hostileStarted.await(10, TimeUnit.SECONDS)).isTrue();
        CountDownLatch otherRan = new CountDownLatch(1);
        workers.submit(ADDRESS, "other", otherRan::countDown);

        assertThat(otherRan.await(10, TimeUnit.SECONDS))
                .as("another owner's task runs while hostile ones block")
                .isTrue();
        // The other task counts as running until its worker has released it; hostile ones never finish.
        await().atMost(Duration.ofSeconds(10)).until(workers::running, running -> running == 2);
        assertThat(workers.waiting())
                .as("the hostile owner's other tasks wait for its share")
                .isEqualTo(8);
        release.countDown();
    }

    @Test
    void manyOwnersFromOneAddressAtItsLimitLeaveWorkersForAnotherAddress() throws Exception {
        FairWorkers workers = new FairWorkers(threads, 3, 1, 2);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch floodStarted = new CountDownLatch(2);
        for (int i = 0; i < 20; i++) {
            workers.submit(ADDRESS, "fresh-key-" + i, () -> {
                floodStarted.countDown();
                awaitQuietly(release);
            });
        }
        assertThat(floodStarted.await(10, TimeUnit.SECONDS)).isTrue();
        CountDownLatch otherRan = new CountDownLatch(1);
        workers.submit("198.51.100.7", "neighbour", otherRan::countDown);

        assertThat(otherRan.await(10, TimeUnit.SECONDS))
                .as("a task from another address runs while the flooding address holds its share")
                .isTrue();
        await().atMost(Duration.ofSeconds(10)).until(workers::running, running -> running == 2);
        assertThat(workers.waiting())
                .as("the flooding address's other pubkeys wait for its share")
                .isEqualTo(18);
        release.countDown();
    }

    @Test
    void ownersTakeTurns() throws Exception {
        FairWorkers workers = new FairWorkers(threads, 1, 1, 1);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch firstStarted = new CountDownLatch(1);
        List<String> order = new CopyOnWriteArrayList<>();
        workers.submit(ADDRESS, "a", () -> {
            firstStarted.countDown();
            awaitQuietly(release);
        });
        assertThat(firstStarted.await(10, TimeUnit.SECONDS)).isTrue();
        for (int i = 0; i < 3; i++) {
            workers.submit(ADDRESS, "a", () -> order.add("a"));
        }
        workers.submit(ADDRESS, "b", () -> order.add("b"));
        CountDownLatch done = new CountDownLatch(1);
        workers.submit(ADDRESS, "c", done::countDown);
        release.countDown();

        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(order).as("b's one task is not queued behind all of a's").startsWith("a", "b");
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
