package chat.buzz.relay.fleet;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.UUID;

/** How this relay instance names itself in the fleet and in the per-instance statistics. */
public final class InstanceName {
    private InstanceName() {}

    /** The host name plus a random part that tells restarts apart. */
    public static String newInstanceId() {
        return hostName() + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    public static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "unknown-host";
        }
    }
}
