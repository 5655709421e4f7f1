package chat.buzz.relay.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.LongConsumer;

/**
 * How the seeded property tests choose their seeds: the one given with -D{property}=N when replaying a
 * failure, otherwise a fresh random seed (so every run explores something new) followed by fixed ones
 * (so every run also covers what was once found wrong).
 */
public final class PropertySeeds {
    private PropertySeeds() {}

    public static List<Long> seeds(String property, long... fixed) {
        String given = System.getProperty(property);
        if (given != null) {
            return List.of(Long.parseLong(given));
        }
        List<Long> seeds = new ArrayList<>();
        seeds.add(new Random().nextLong());
        for (long seed : fixed) {
            seeds.add(seed);
        }
        return seeds;
    }

    /** Plays each seed, printing how long it took, and names the replay flag when one fails. */
    public static void play(String label, String property, LongConsumer run, long... fixed) {
        playEach(label, property, run, seeds(property, fixed));
    }

    private static void playEach(String label, String property, LongConsumer run, List<Long> seeds) {
        for (long seed : seeds) {
            long started = System.nanoTime();
            try {
                run.accept(seed);
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError(label + " failed; replay with -D" + property + "=" + seed, e);
            }
            System.out.printf("%s: seed %d took %d ms%n", label, seed, (System.nanoTime() - started) / 1_000_000);
        }
    }
}
