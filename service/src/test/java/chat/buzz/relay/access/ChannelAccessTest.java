package chat.buzz.relay.access;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The Java access rules on their own (PROTOCOL 3.1, 4.2); AccessRulesAgreeTest holds the read rules to the SQL. */
class ChannelAccessTest {
    private static final Optional<Role> NONE = Optional.empty();

    private static ChannelAccess access(
            boolean open, boolean unlisted, Long ttl, boolean deleted, Optional<Role> role) {
        return new ChannelAccess(Optional.of(new ChannelFacts(UUID.randomUUID(), open, unlisted, ttl, deleted)), role);
    }

    private static ChannelAccess open(Optional<Role> role) {
        return access(true, false, null, false, role);
    }

    private static ChannelAccess privateChannel(Optional<Role> role) {
        return access(false, false, null, false, role);
    }

    @Test
    void aMissingOrDeletedChannelAllowsNothing() {
        for (ChannelAccess access : new ChannelAccess[] {
            new ChannelAccess(Optional.empty(), Optional.of(Role.OWNER)),
            access(true, false, null, true, Optional.of(Role.OWNER))
        }) {
            assertThat(access.exists()).isFalse();
            assertThat(access.canRead()).isFalse();
            assertThat(access.canWrite()).isFalse();
            assertThat(access.canEdit()).isFalse();
            assertThat(access.canDelete()).isFalse();
            assertThat(access.canJoin()).isFalse();
            assertThat(access.mayChangeMember(NONE, Optional.of(Role.MEMBER))).isFalse();
            assertThat(access.discoverable(true)).isFalse();
            assertThat(access.inCurrentRead(true)).isFalse();
        }
    }

    @Test
    void openChannelsAreReadAndWrittenByAnyoneAndJoinedByAnyone() {
        assertThat(open(NONE).canRead()).isTrue();
        assertThat(open(NONE).canWrite()).isTrue();
        assertThat(open(NONE).canJoin()).isTrue();
        assertThat(open(NONE).canEdit()).isFalse();
    }

    @Test
    void privateChannelsAreForActiveMembersOnlyAndCannotBeJoined() {
        assertThat(privateChannel(NONE).canRead()).isFalse();
        assertThat(privateChannel(NONE).canWrite()).isFalse();
        assertThat(privateChannel(NONE).canJoin()).isFalse();
        assertThat(privateChannel(Optional.of(Role.MEMBER)).canRead()).isTrue();
        assertThat(privateChannel(Optional.of(Role.MEMBER)).canJoin()).isFalse();
    }

    @Test
    void ownersAndAdminsEditAndManageMembersOnlyOwnersDelete() {
        assertThat(open(Optional.of(Role.OWNER)).canEdit()).isTrue();
        assertThat(open(Optional.of(Role.ADMIN)).canEdit()).isTrue();
        assertThat(open(Optional.of(Role.MEMBER)).canEdit()).isFalse();
        assertThat(open(Optional.of(Role.ADMIN)).canManageMembers()).isTrue();
        assertThat(open(Optional.of(Role.MEMBER)).canManageMembers()).isFalse();
        assertThat(open(Optional.of(Role.OWNER)).canDelete()).isTrue();
        assertThat(open(Optional.of(Role.ADMIN)).canDelete()).isFalse();
    }

    @Test
    void nobodyGrantsAboveTheirRankOrChangesAnOwnerAndOnlyOwnersChangeAdmins() {
        ChannelAccess owner = open(Optional.of(Role.OWNER));
        ChannelAccess admin = open(Optional.of(Role.ADMIN));
        ChannelAccess member = open(Optional.of(Role.MEMBER));

        assertThat(owner.mayChangeMember(NONE, Optional.of(Role.ADMIN))).isTrue();
        assertThat(owner.mayChangeMember(Optional.of(Role.ADMIN), NONE)).isTrue();
        assertThat(owner.mayChangeMember(Optional.of(Role.OWNER), NONE))
                .as("an owner is never changed")
                .isFalse();
        assertThat(owner.mayChangeMember(NONE, Optional.of(Role.OWNER)))
                .as("nothing outranks an owner")
                .isTrue();

        assertThat(admin.mayChangeMember(NONE, Optional.of(Role.MEMBER))).isTrue();
        assertThat(admin.mayChangeMember(NONE, Optional.of(Role.ADMIN))).isTrue();
        assertThat(admin.mayChangeMember(NONE, Optional.of(Role.OWNER)))
                .as("above its rank")
                .isFalse();
        assertThat(admin.mayChangeMember(Optional.of(Role.ADMIN), NONE))
                .as("only an owner changes an admin")
                .isFalse();
        assertThat(admin.mayChangeMember(Optional.of(Role.MEMBER), NONE)).isTrue();

        assertThat(member.mayChangeMember(NONE, Optional.of(Role.MEMBER))).isFalse();
    }

    @Test
    void authorsRedactTheirOwnRevisionsOwnersAndAdminsAnything() {
        assertThat(open(NONE).canRedact("alice", "alice")).isTrue();
        assertThat(open(NONE).canRedact("alice", "bob")).isFalse();
        assertThat(open(Optional.of(Role.MEMBER)).canRedact("alice", "bob")).isFalse();
        assertThat(open(Optional.of(Role.ADMIN)).canRedact("alice", "bob")).isTrue();
    }

    @Test
    void unlistedChannelsAreDiscoveredOnlyByMembersOrThroughAScope() {
        ChannelAccess outsider = access(true, true, null, false, NONE);
        ChannelAccess member = access(true, true, null, false, Optional.of(Role.MEMBER));
        assertThat(outsider.canRead()).isTrue();
        assertThat(outsider.discoverable(false)).isFalse();
        assertThat(outsider.discoverable(true)).isTrue();
        assertThat(outsider.inCurrentRead(false)).isFalse();
        assertThat(outsider.inCurrentRead(true)).isTrue();
        assertThat(outsider.readableById()).isTrue();
        assertThat(member.discoverable(false)).isTrue();
    }

    @Test
    void ttlChannelsAreReadByModeCurrentButNeverSynced() {
        ChannelAccess ttl = access(true, false, 60L, false, NONE);
        assertThat(ttl.canRead()).isTrue();
        assertThat(ttl.inCurrentRead(false)).isTrue();
        assertThat(ttl.discoverable(false)).isFalse();
        assertThat(ttl.discoverable(true)).isFalse();
        assertThat(ttl.readableById()).isFalse();
    }
}
