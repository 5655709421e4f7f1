package chat.buzz.relay.client;

import chat.buzz.relay.testing.IntegrationTest;

/** {@link CommandLineEndToEndTest} with channel policy changes delivered as entries (gate SCOPED_POLICY on). */
@IntegrationTest
@PolicyChangesAsEntries
class CommandLineEndToEndEntriesTest extends CommandLineEndToEndTest {}
