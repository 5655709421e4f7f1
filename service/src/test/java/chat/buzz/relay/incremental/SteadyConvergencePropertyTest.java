package chat.buzz.relay.incremental;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.ChannelMetadataProbe;
import chat.buzz.relay.testing.ExactSet;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.LeakOracle;
import chat.buzz.relay.testing.Model;
import chat.buzz.relay.testing.ModelWriter;
import chat.buzz.relay.testing.PropertySeeds;
import chat.buzz.relay.testing.SteadyOperations;
import chat.buzz.relay.testing.SteadyWorld;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The steady mode of the convergence property (issue 13): random writes that never advance the policy
 * stamp, so no reset may ever wipe a client's store and hide a missed removal. After every session
 * that ran without writes in between, each client's store equals D(reader, scope) of the model exactly,
 * no extras; a session that writes interrupted is judged at the next one. Every answer goes through the
 * leak oracle. Resets, pages naming an artifact twice, and heads a later session sends again although an
 * earlier one delivered them (PROTOCOL 4.2, issue 11.2) must all be zero.
 * Replay with -Dbuzz.steady.seed=N; -Dbuzz.steady.operations=N sets the length of each seed.
 */
@IntegrationTest
class SteadyConvergencePropertyTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(ConfigOverride.config("gates.incremental", "true"));

    private static final int OPERATIONS = Integer.getInteger("buzz.steady.operations", 600);

    @Test
    void everySessionEndsWithExactlyTheDiscoverableSet() {
        PropertySeeds.play("steady incremental", "buzz.steady.seed", seed -> new Run(seed).play(), 13L, 1313L, 7L);
    }

    private static final class Run {
        private final long seed;
        private final Random random;
        private final Model model = new Model();
        private final ModelWriter writer = new ModelWriter(RELAY.client(), model);
        private final LeakOracle oracle = new LeakOracle(model, SealedCursors.of(RELAY)::artifactIds);
        private final List<SteadyClient> clients = new ArrayList<>();
        private final ChannelMetadataProbe channelMetadata = new ChannelMetadataProbe(model, oracle);
        private final List<NostrKeys> keys = new ArrayList<>();
        private SteadyOperations operations;

        Run(long seed) {
            this.seed = seed;
            this.random = new Random(seed);
        }

        void play() {
            SteadyWorld world = new SteadyWorld(writer, random);
            operations = world.operations;
            NostrKeys owner = world.owner;
            List<NostrKeys> readers = world.readers;
            List<UUID> channels = world.channels;
            keys.addAll(readers);
            keys.add(owner);
            for (int i = 0; i < readers.size(); i++) {
                clients.add(new SteadyClient(RELAY.client(), readers.get(i), Set.of(), "r" + i, model, oracle));
            }
            clients.add(new SteadyClient(RELAY.client(), owner, Set.of(), "owner", model, oracle));
            clients.add(new SteadyClient(
                    RELAY.client(),
                    readers.get(0),
                    Set.of(channels.get(0), channels.get(2)),
                    "r0 scoped to a private and an unlisted channel",
                    model,
                    oracle));
            clients.add(new SteadyClient(
                    RELAY.client(),
                    readers.get(1),
                    Set.of(channels.get(1), channels.get(3)),
                    "r1 scoped to a listed and a private channel",
                    model,
                    oracle));
            System.out.printf(
                    "steady incremental: seed %d, %d operations, leaving out %s%n",
                    seed, OPERATIONS, world.leftOutDescription());

            for (int step = 0; step < OPERATIONS; step++) {
                operations.step();
                clients.forEach(c -> c.interrupted |= c.sync.midSession);
                if (random.nextInt(3) == 0) {
                    read(clients.get(random.nextInt(clients.size())));
                }
                if (step % 50 == 49) {
                    checkChannelMetadata();
                }
            }
            for (SteadyClient client : clients) {
                finish(client);
                finish(client);
                // PROTOCOL 4.2: a session after no change returns no entries, however recent the writes.
                finish(client);
                assertThat(client.sessionEntries)
                        .as(
                                "%s: entries of a session after no change to %s%n%s",
                                context(), client.label, writer.story())
                        .isZero();
            }
            checkChannelMetadata();
            report();
            writer.deleteAllChannels(owner);
        }

        /** Writes are synchronous here, so between two steps is a quiet point for every reader's metadata. */
        private void checkChannelMetadata() {
            for (NostrKeys reader : keys) {
                channelMetadata.check(
                        RELAY.client(),
                        reader,
                        writer.name(reader.publicKeyHex()),
                        () -> context() + "\n" + writer.story());
            }
        }

        /** Starts or continues a session: sometimes to its end, sometimes pausing after a few small pages. */
        private void read(SteadyClient client) {
            int limit = random.nextInt(3) > 0 ? 1 + random.nextInt(5) : 1 + random.nextInt(100);
            int pages = random.nextBoolean() ? Integer.MAX_VALUE : 1 + random.nextInt(3);
            writer.note("read " + client.label + " limit=" + limit + (client.sync.midSession ? " (continuing)" : "")
                    + (pages == Integer.MAX_VALUE ? " to the end" : " for " + pages + " pages"));
            for (int page = 0; page < pages; page++) {
                boolean finished = client.page(limit);
                checkAnswers(client);
                if (finished) {
                    if (!client.interrupted) {
                        checkExact(client);
                    }
                    return;
                }
            }
        }

        private void finish(SteadyClient client) {
            writer.note("final read " + client.label);
            while (!client.page(100)) {
                checkAnswers(client);
            }
            checkAnswers(client);
            checkExact(client);
        }

        private void checkAnswers(SteadyClient client) {
            assertThat(client.leaks)
                    .as("%s: what the oracle found in answers to %s%n%s", context(), client.label, writer.story())
                    .isEmpty();
            assertThat(client.sync.resets)
                    .as("%s: resets seen by %s with no policy change%n%s", context(), client.label, writer.story())
                    .isZero();
            assertThat(client.namedTwiceInAPage)
                    .as("%s: artifacts named twice in one page to %s%n%s", context(), client.label, writer.story())
                    .isEmpty();
            assertThat(client.resent.found)
                    .as(
                            "%s: heads sent again to %s by a later session although delivered before%n%s%n%s",
                            context(), client.label, writer.story(), resentHistory(client))
                    .isEmpty();
        }

        /** The story of each artifact sent again, with every read and membership change of its reader. */
        private String resentHistory(SteadyClient client) {
            String reader = client.label.split(" ")[0] + " ";
            return client.resent.found.stream()
                    .map(line -> line + writer.historyMentioning(ModelWriter.shortId(line), reader))
                    .collect(java.util.stream.Collectors.joining("\n"));
        }

        private void checkExact(SteadyClient client) {
            ExactSet.assertHoldsExactly(
                    model.discoverable(client.view),
                    client.heads(),
                    client.label + " after a finished session",
                    context(),
                    writer,
                    d -> " (not recorded)");
        }

        private String context() {
            return "seed " + seed + " (replay with -Dbuzz.steady.seed=" + seed + ")";
        }

        private void report() {
            int notHeld = 0;
            int sessions = 0;
            int pages = 0;
            for (SteadyClient client : clients) {
                notHeld += client.removalsOfWhatWasNotHeld;
                sessions += client.sessions;
                pages += client.pages;
            }
            System.out.printf(
                    "steady incremental: seed %d: %d sessions, %d pages, 0 resets, 0 heads re-sent by a later"
                            + " session, %d removals of artifacts the client did not hold, %d channel-metadata"
                            + " reads; writes %s%n",
                    seed, sessions, pages, notHeld, channelMetadata.reads(), operations.done());
        }
    }
}
