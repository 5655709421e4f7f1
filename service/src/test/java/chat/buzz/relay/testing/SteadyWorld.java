package chat.buzz.relay.testing;

import chat.buzz.protocol.NostrKeys;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;

/**
 * The starting world of the steady convergence tests (incremental and WebSocket): an owner and three
 * readers, two private, two listed open and two unlisted open channels (and, unless this seed leaves them
 * out, two TTL channels that scopes never name), random memberships, a dozen artifacts, and the random
 * operations that follow, with some kinds left out at random so their defects cannot hide the others'.
 */
public final class SteadyWorld {
    public final NostrKeys owner = NostrKeys.generate();
    public final List<NostrKeys> readers = List.of(NostrKeys.generate(), NostrKeys.generate(), NostrKeys.generate());
    public final List<UUID> channels = new ArrayList<>();
    public final Set<SteadyOperations.Kind> leftOut;
    public final boolean ttl;
    public final SteadyOperations operations;

    public SteadyWorld(ModelWriter writer, Random random) {
        this(writer, random, false);
    }

    /**
     * @param policyChanges whether the walk also changes channel policy ({@link SteadyOperations}); the
     *                      scoped clients' channels (the first four) never get a TTL then
     */
    public SteadyWorld(ModelWriter writer, Random random, boolean policyChanges) {
        writer.name(owner, "owner");
        for (int i = 0; i < readers.size(); i++) {
            writer.name(readers.get(i), "r" + i);
        }
        leftOut = SteadyOperations.randomlyLeftOut(random, policyChanges);
        ttl = random.nextInt(3) > 0;
        operations = new SteadyOperations(writer, random, owner, readers, leftOut, ttl, policyChanges);
        for (int i = 0; i < 2; i++) {
            channels.add(writer.channel(owner, false, false, false));
            channels.add(writer.channel(owner, true, false, false));
            channels.add(writer.channel(owner, true, true, false));
        }
        if (ttl) {
            channels.add(writer.channel(owner, true, false, true));
            channels.add(writer.channel(owner, false, false, true));
        }
        channels.subList(0, 4).forEach(operations::keepDurable);
        for (NostrKeys reader : readers) {
            for (UUID channel : channels) {
                if (random.nextInt(3) == 0) {
                    writer.add(owner, channel, reader);
                }
            }
        }
        for (int i = 0; i < 12; i++) {
            writer.create(owner, channels.get(random.nextInt(channels.size())));
        }
    }

    /** What this seed leaves out, for the line each run prints. */
    public String leftOutDescription() {
        return leftOut + (ttl ? "" : " and TTL channels");
    }
}
