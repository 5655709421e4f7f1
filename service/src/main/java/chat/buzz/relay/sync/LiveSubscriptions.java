package chat.buzz.relay.sync;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * This instance's artifact subscriptions by community: what the {@link Fanout} hands each change to.
 * A subscription is in here from just before its snapshot query until it has ended.
 */
final class LiveSubscriptions {
    private final Map<Long, Set<Subscription>> byCommunity = new ConcurrentHashMap<>();

    void add(Subscription subscription) {
        byCommunity
                .computeIfAbsent(subscription.community(), c -> ConcurrentHashMap.newKeySet())
                .add(subscription);
    }

    void remove(Subscription subscription) {
        Set<Subscription> subscriptions = byCommunity.get(subscription.community());
        if (subscriptions != null) {
            subscriptions.remove(subscription);
        }
    }

    /** The subscriptions of a community on this instance now. */
    List<Subscription> of(long community) {
        Set<Subscription> subscriptions = byCommunity.get(community);
        return subscriptions == null ? List.of() : List.copyOf(subscriptions);
    }

    int count() {
        return byCommunity.values().stream().mapToInt(Set::size).sum();
    }

    /** Ends every subscription with {@code ["CLOSED", id, message]}. */
    void closeAll(String message) {
        byCommunity.values().forEach(subscriptions -> subscriptions.forEach(s -> s.close(message)));
    }
}
