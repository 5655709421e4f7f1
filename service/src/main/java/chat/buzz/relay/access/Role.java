package chat.buzz.relay.access;

import java.util.Locale;
import java.util.Optional;

/** Channel roles, highest first: owner > admin > member. */
public enum Role {
    OWNER,
    ADMIN,
    MEMBER;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public boolean outranks(Role other) {
        return ordinal() < other.ordinal();
    }

    public boolean atLeast(Role other) {
        return ordinal() <= other.ordinal();
    }

    public static Optional<Role> fromWire(String value) {
        for (Role role : values()) {
            if (role.wireName().equals(value)) {
                return Optional.of(role);
            }
        }
        return Optional.empty();
    }
}
