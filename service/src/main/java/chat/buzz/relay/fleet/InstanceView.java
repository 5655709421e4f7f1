package chat.buzz.relay.fleet;

/**
 * One row of GET /api/instances: the instance's last report, how long ago it came, and whether its
 * process is gone (no database session left: it cannot serve, so it counts for no confirmation) or only
 * silent (stale: frozen or cut off, it may wake up and serve what it last read).
 */
public record InstanceView(InstanceReport report, boolean stale, boolean gone, double secondsSinceSeen, boolean self) {}
