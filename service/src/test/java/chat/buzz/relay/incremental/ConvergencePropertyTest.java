package chat.buzz.relay.incremental;

import static chat.buzz.relay.testing.Nostr.tag;
import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Seeded random operations over several channels and readers, with clients syncing at random moments:
 * after every session that ran without writes in between, each client's store holds exactly the
 * discoverable set computed from this test's own model (plus what known-ID reads confirmed after a reset).
 * Replay a failure with -Dbuzz.convergence.seed=N; -Dbuzz.convergence.operations=N sets the length.
 */
@IntegrationTest
class ConvergencePropertyTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(ConfigOverride.config("gates.incremental", "true"));

    private static final int OPERATIONS = Integer.getInteger("buzz.convergence.operations", 1000);

    @Test
    void clientsConvergeOnTheDiscoverableSet() {
        String fixed = System.getProperty("buzz.convergence.seed");
        List<Long> seeds =
                fixed != null ? List.of(Long.parseLong(fixed)) : List.of(new Random().nextLong(), 11L, 4242L);
        for (long seed : seeds) {
            System.out.printf("convergence: seed %d, %d operations%n", seed, OPERATIONS);
            try {
                new Run(RELAY, seed, false).play(OPERATIONS);
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError("convergence failed; replay with -Dbuzz.convergence.seed=" + seed, e);
            }
        }
    }

    /** The generator's own picture of the world: no SQL, no relay code. */
    static final class ChannelModel {
        final UUID id;
        boolean open;
        boolean unlisted;
        boolean ttl;
        boolean deleted;
        final Set<String> members = new HashSet<>();

        ChannelModel(UUID id, boolean open, boolean unlisted, boolean ttl) {
            this.id = id;
            this.open = open;
            this.unlisted = unlisted;
            this.ttl = ttl;
        }
    }

    static final class ArtifactModel {
        UUID channel;
        boolean deleted;
        boolean redacted;

        ArtifactModel(UUID channel) {
            this.channel = channel;
        }
    }

    /**
     * One seed's walk. With {@code entries} the relay delivers policy changes as entries (gate
     * SCOPED_POLICY on): no session may be a reset, every completed session ends with exactly D (no
     * extras, since no known-ID read confirms any), and no page names an artifact twice.
     */
    static final class Run {
        private final TestRelay relay;
        private final boolean entries;
        private final long seed;
        private final Random random;
        private final Writer writer;
        private final NostrKeys owner = NostrKeys.generate();
        private final List<NostrKeys> readers =
                List.of(NostrKeys.generate(), NostrKeys.generate(), NostrKeys.generate());
        private final Map<UUID, ChannelModel> channels = new LinkedHashMap<>();
        private final Map<UUID, ArtifactModel> artifacts = new LinkedHashMap<>();
        private final List<String> log = new ArrayList<>();
        private final List<UUID> scopedChannels = new ArrayList<>();
        private final List<Client> clients = new ArrayList<>();

        Run(TestRelay relay, long seed, boolean entries) {
            this.relay = relay;
            this.entries = entries;
            this.seed = seed;
            this.random = new Random(seed);
            this.writer = new Writer(relay.client());
        }

        /** A syncing client plus whether writes happened while one of its sessions was open. */
        private final class Client {
            final SyncingClient sync;
            final List<String> scope;
            boolean interrupted;

            Client(NostrKeys keys, List<String> scope) {
                this.sync = new SyncingClient(relay.client(), keys, scope).openingCursors(SealedCursors.of(relay));
                this.scope = scope;
                if (entries) {
                    sync.inspector = body -> {
                        Set<String> named = new HashSet<>();
                        body.path("entries")
                                .forEach(entry -> assertThat(
                                                named.add(entry.path("d").asText()))
                                        .as(
                                                "seed %d: a page names %s twice",
                                                seed, entry.path("d").asText())
                                        .isTrue());
                        assertThat(body.path("reset").asBoolean(false))
                                .as(
                                        "seed %d: policy changes delivered as entries reset nobody\n%s",
                                        seed, String.join("\n", log))
                                .isFalse();
                    };
                }
            }
        }

        /** Operations made; each seed prints it with its resets. */
        int operations;

        void play(int operations) {
            this.operations = operations;
            for (int i = 0; i < 6; i++) {
                newChannel(i < 2 ? false : random.nextBoolean(), i >= 2 && random.nextInt(3) == 0, true);
            }
            // The scoped client's channels never get a TTL: a TTL channel in a scope is a 422 (tested elsewhere).
            scopedChannels.add(newChannel(random.nextBoolean(), false, false));
            for (NostrKeys reader : readers) {
                clients.add(new Client(reader, List.of()));
            }
            clients.add(new Client(
                    readers.get(0), scopedChannels.stream().map(UUID::toString).toList()));
            for (int step = 0; step < operations; step++) {
                operate();
                if (random.nextInt(8) == 0) {
                    syncSomeone();
                }
            }
            for (Client client : clients) {
                finish(client);
                finish(client);
            }
        }

        private void syncSomeone() {
            Client client = pick(clients);
            int limit = random.nextInt(4) == 0 ? 1 + random.nextInt(3) : 1 + random.nextInt(100);
            note("sync " + reader(client.sync.keys) + " scope=" + client.scope.size() + " limit=" + limit
                    + (client.sync.midSession ? " (continuing)" : ""));
            if (client.sync.midSession || random.nextInt(4) > 0) {
                client.sync.session(limit);
                if (client.interrupted) {
                    client.interrupted = false;
                } else {
                    check(client);
                }
            } else {
                client.sync.page(limit);
                if (client.sync.midSession) {
                    clients.forEach(c -> c.interrupted |= c == client);
                } else {
                    check(client);
                }
            }
        }

        /**
         * Ends whatever session is open, then checks, unless that session began before writes that came
         * while it was open: its end holds D as of its start plus some later changes (PROTOCOL 4.2), and a
         * bootstrap keeps going through a policy change, so only the session after it is judged.
         */
        private void finish(Client client) {
            boolean continuing = client.sync.midSession;
            client.sync.session(100);
            client.interrupted = false;
            if (!continuing) {
                check(client);
            }
        }

        private void note(String what) {
            log.add(what);
            if (log.size() > 60) {
                log.remove(0);
            }
        }

        private String name(UUID id) {
            return id.toString().substring(0, 8);
        }

        private String reader(NostrKeys keys) {
            return "r" + readers.indexOf(keys);
        }

        private void operate() {
            List<UUID> liveChannels = channels.values().stream()
                    .filter(c -> !c.deleted)
                    .map(c -> c.id)
                    .toList();
            List<UUID> writable = artifacts.entrySet().stream()
                    .filter(e -> !channels.get(e.getValue().channel).deleted)
                    .map(Map.Entry::getKey)
                    .toList();
            int choice = random.nextInt(100);
            if (liveChannels.size() < 3 || choice < 3) {
                newChannel(random.nextBoolean(), random.nextInt(5) == 0, true);
            } else if (writable.isEmpty() || choice < 20) {
                UUID channel = pick(liveChannels);
                UUID d = writer.create(owner, channel);
                artifacts.put(d, new ArtifactModel(channel));
                note("create " + name(d) + " in " + name(channel));
            } else if (choice < 45) {
                UUID d = pick(writable);
                ArtifactModel artifact = artifacts.get(d);
                if (artifact.deleted) {
                    writer.restore(owner, d);
                    note("restore " + name(d));
                    artifact.deleted = false;
                } else {
                    writer.edit(owner, d, "edit " + choice);
                    note("edit " + name(d));
                }
                artifact.redacted = false;
            } else if (choice < 55) {
                UUID d = pick(writable);
                ArtifactModel artifact = artifacts.get(d);
                List<UUID> targets = liveChannels.stream()
                        .filter(c -> !c.equals(artifact.channel))
                        .toList();
                if (!artifact.deleted && !targets.isEmpty()) {
                    UUID to = pick(targets);
                    writer.move(owner, d, to);
                    note("move " + name(d) + " from " + name(artifact.channel) + " to " + name(to));
                    artifact.channel = to;
                    artifact.redacted = false;
                }
            } else if (choice < 60) {
                UUID d = pick(writable);
                ArtifactModel artifact = artifacts.get(d);
                if (!artifact.deleted) {
                    writer.delete(owner, d);
                    note("delete " + name(d));
                    artifact.deleted = true;
                    artifact.redacted = false;
                }
            } else if (choice < 64) {
                UUID d = pick(writable);
                ArtifactModel artifact = artifacts.get(d);
                if (!artifact.redacted) {
                    writer.redactHead(owner, d);
                    note("redact " + name(d));
                    artifact.redacted = true;
                }
            } else if (choice < 78) {
                ChannelModel channel = channels.get(pick(liveChannels));
                NostrKeys reader = pick(readers);
                String pubkey = reader.publicKeyHex();
                if (channel.members.contains(pubkey)) {
                    writer.removeMember(owner, channel.id, reader);
                    note("remove " + reader(reader) + " from " + name(channel.id));
                    channel.members.remove(pubkey);
                } else if (channel.open && random.nextBoolean()) {
                    writer.join(reader, channel.id);
                    note("join " + reader(reader) + " " + name(channel.id));
                    channel.members.add(pubkey);
                } else {
                    writer.addMember(owner, channel.id, reader);
                    note("add " + reader(reader) + " to " + name(channel.id));
                    channel.members.add(pubkey);
                }
            } else if (choice < 86) {
                ChannelModel channel = channels.get(pick(liveChannels));
                channel.open = !channel.open;
                writer.editChannel(owner, channel.id, tag(Tags.VISIBILITY, channel.open ? "open" : "private"));
                note("visibility " + name(channel.id) + " open=" + channel.open);
            } else if (choice < 92) {
                ChannelModel channel = channels.get(pick(liveChannels));
                if (channel.open) {
                    channel.unlisted = !channel.unlisted;
                    writer.editChannel(owner, channel.id, tag(Tags.UNLISTED, Boolean.toString(channel.unlisted)));
                    note("unlisted " + name(channel.id) + " " + channel.unlisted);
                }
            } else if (choice < 97) {
                ChannelModel channel = channels.get(pick(liveChannels));
                if (!scopedChannels.contains(channel.id)) {
                    channel.ttl = !channel.ttl;
                    writer.editChannel(owner, channel.id, tag(Tags.TTL, channel.ttl ? "300" : "0"));
                    note("ttl " + name(channel.id) + " " + channel.ttl);
                }
            } else {
                ChannelModel channel = channels.get(pick(liveChannels));
                writer.deleteChannel(owner, channel.id);
                note("delete channel " + name(channel.id));
                channel.deleted = true;
            }
        }

        private UUID newChannel(boolean isPrivate, boolean unlisted, boolean mayHaveTtl) {
            boolean listed = isPrivate || !unlisted;
            boolean ttl = mayHaveTtl && random.nextInt(6) == 0;
            List<List<String>> extra = new ArrayList<>();
            if (!listed) {
                extra.add(tag(Tags.UNLISTED, "true"));
            }
            if (ttl) {
                extra.add(tag(Tags.TTL, "300"));
            }
            @SuppressWarnings("unchecked")
            UUID id = writer.channel(owner, isPrivate ? "private" : "open", extra.toArray(List[]::new));
            ChannelModel channel = new ChannelModel(id, !isPrivate, !listed, ttl);
            channel.members.add(owner.publicKeyHex());
            channels.put(id, channel);
            note("channel " + name(id) + " open=" + channel.open + " unlisted=" + channel.unlisted + " ttl=" + ttl);
            return id;
        }

        /** D(reader, scope) from PROTOCOL 4.2, on the model. */
        private Map<String, String> discoverable(Client client) {
            String reader = client.sync.keys.publicKeyHex();
            Map<String, String> expected = new HashMap<>();
            artifacts.forEach((d, artifact) -> {
                ChannelModel channel = channels.get(artifact.channel);
                boolean member = channel.members.contains(reader);
                boolean readable = !channel.deleted && (channel.open || member);
                boolean inScope = client.scope.isEmpty()
                        ? member || (channel.open && !channel.unlisted)
                        : client.scope.contains(channel.id.toString());
                if (!artifact.deleted && !artifact.redacted && !channel.ttl && readable && inScope) {
                    expected.put(d.toString(), writer.heads.get(d));
                }
            });
            return expected;
        }

        private void check(Client client) {
            Map<String, String> expected = discoverable(client);
            // Earlier seeds ran in the same community; their open channels are discoverable too, but unchanging.
            Map<String, String> actual = client.sync.heads().entrySet().stream()
                    .filter(e -> artifacts.containsKey(UUID.fromString(e.getKey())))
                    .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
            Map<String, String> extras = actual.entrySet().stream()
                    .filter(e -> !expected.containsKey(e.getKey()))
                    .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
            String story = String.join("\n", log) + "\nchannels: "
                    + channels.values().stream()
                            .map(c -> name(c.id) + (c.open ? " open" : " private") + (c.unlisted ? " unlisted" : "")
                                    + (c.ttl ? " ttl" : "") + (c.deleted ? " deleted" : "") + " members="
                                    + c.members.stream()
                                            .map(m -> readers.stream()
                                                    .filter(r ->
                                                            r.publicKeyHex().equals(m))
                                                    .map(this::reader)
                                                    .findFirst()
                                                    .orElse("owner"))
                                            .toList())
                            .collect(Collectors.joining("; "));
            assertThat(actual)
                    .as(
                            "seed %d, client %s %s: every discoverable head\n%s",
                            seed, reader(client.sync.keys), client.scope, story)
                    .containsAllEntriesOf(expected);
            assertThat(extras.keySet())
                    .as(
                            "seed %d, client %s %s: only known-ID confirmed extras\n%s",
                            seed, reader(client.sync.keys), client.scope, story)
                    .isSubsetOf(client.sync.confirmedByKnownId);
            if (entries) {
                assertThat(client.sync.resets).as("seed %d: resets", seed).isZero();
                assertThat(extras.keySet())
                        .as(
                                "seed %d, client %s %s: exactly D, no extras\n%s",
                                seed, reader(client.sync.keys), client.scope, story)
                        .isEmpty();
            }
        }

        private <T> T pick(List<T> values) {
            return values.get(random.nextInt(values.size()));
        }
    }
}
