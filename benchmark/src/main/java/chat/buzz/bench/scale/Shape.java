package chat.buzz.bench.scale;

/**
 * The reference shape (docs/benchmarks.md) scaled to a number of artifacts: five artifacts per channel, half
 * of the channels private, 60,002 memberships per 10,050 artifacts, the reader in every channel.
 */
record Shape(int artifacts, int channels, int memberships) {
    static final int ARTIFACTS_PER_CHANNEL = 5;
    static final int EVENT_BYTES = 4_923;
    /** Channels the reader is not in yet, for the grant figure: 100 channels, 500 old artifacts. */
    static final int GRANT_CHANNELS = 100;

    static Shape of(int artifacts) {
        int channels = (artifacts + ARTIFACTS_PER_CHANNEL - 1) / ARTIFACTS_PER_CHANNEL;
        int memberships = (int) Math.round(artifacts * 60_002.0 / 10_050.0);
        return new Shape(artifacts, channels, Math.max(memberships, 2 * channels));
    }

    boolean isPrivate(int channel) {
        return channel % 2 == 1;
    }

    int artifactsIn(int channel) {
        return Math.min(ARTIFACTS_PER_CHANNEL, artifacts - channel * ARTIFACTS_PER_CHANNEL);
    }

    /** Members besides the owner and the reader, spread evenly over the channels. */
    int extraMembers(int channel) {
        long extras = memberships - 2L * channels;
        return (int) ((channel + 1) * extras / channels - channel * extras / channels);
    }
}
