package chat.buzz.relay.ops;

import chat.buzz.relay.incremental.ExpectedIndex;

/** An expected index against what the database holds. */
public record IndexCheck(
        String name,
        String table,
        boolean exists,
        boolean valid,
        boolean ready,
        boolean matches,
        String definition,
        String expected,
        String prebuild) {

    static IndexCheck of(ExpectedIndex expected, SchemaDao.IndexRow actual) {
        if (actual == null) {
            return new IndexCheck(
                    expected.name(),
                    expected.table(),
                    false,
                    false,
                    false,
                    false,
                    null,
                    expected.definition(),
                    expected.prebuildStatement());
        }
        return new IndexCheck(
                expected.name(),
                expected.table(),
                true,
                actual.valid(),
                actual.ready(),
                expected.definition().equals(actual.definition()),
                actual.definition(),
                expected.definition(),
                expected.prebuildStatement());
    }

    public boolean usable() {
        return exists && valid && ready && matches;
    }

    /** What is wrong with it, in words an operator can act on; empty when usable. */
    public String problem() {
        if (!exists) {
            return "index " + name + " is missing";
        }
        if (!valid || !ready) {
            return "index " + name + " is " + (valid ? "" : "invalid") + (!valid && !ready ? " and " : "")
                    + (ready ? "" : "not ready") + " (drop it and build it again)";
        }
        if (!matches) {
            return "index " + name + " differs from the expected definition: " + definition;
        }
        return "";
    }
}
