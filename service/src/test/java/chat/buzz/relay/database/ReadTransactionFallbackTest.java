package chat.buzz.relay.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import chat.buzz.relay.database.ReadNodes.StandbyRead;
import chat.buzz.relay.database.ReadTransaction.Isolation;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.TestDatabases;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What a read does when the standby it was routed to cannot serve it: the primary answers, once, and the
 * routing hears of failures the primary can still answer. The "standby" here is a second pool on a real
 * database whose server raises the errors a standby raises (SQLSTATE 40001 when recovery cancels a read)
 * and has replayed nothing (it is not in recovery, so its replay position is unknown).
 */
@IntegrationTest
class ReadTransactionFallbackTest {
    private static String url;
    private static Jdbi primary;
    private static Jdbi standby;

    /** Where each read ran, and which standby reads failed over. */
    private final List<String> served = new ArrayList<>();

    private final List<RuntimeException> failures = new ArrayList<>();

    @BeforeAll
    static void createDatabase() {
        url = TestDatabases.fresh();
        primary = Jdbi.create(url, TestDatabases.USER, "");
        standby = Jdbi.create(url, TestDatabases.USER, "");
    }

    @AfterAll
    static void dropDatabase() {
        TestDatabases.drop(url);
    }

    @Test
    void aReadCancelledByRecoveryOnTheStandbyIsAnsweredByThePrimary() {
        String answer = routedTo(new StandbyRead("standby", standby, 0, true))
                .run(handle -> onStandby(handle) ? raise(handle, "40001") : "from the primary");

        assertThat(answer).isEqualTo("from the primary");
        assertThat(served).containsExactly("primary after standby");
        assertThat(failures)
                .singleElement()
                .satisfies(e -> assertThat(DatabaseFaults.classify(e)).contains(DatabaseFault.CONFLICT));
    }

    @Test
    void aStandbyThatHasNotReplayedFarEnoughHandsTheReadToThePrimaryWithoutCountingAFailure() {
        String answer = routedTo(new StandbyRead("standby", standby, 1, false))
                .run(handle -> onStandby(handle) ? "from the standby" : "from the primary");

        assertThat(answer).isEqualTo("from the primary");
        assertThat(served).containsExactly("primary after standby");
        assertThat(failures).isEmpty();
    }

    @Test
    void aStandbyThatServesAnswersAndThePrimaryIsNotAsked() {
        String answer = routedTo(new StandbyRead("standby", standby, 0, true))
                .run(handle -> onStandby(handle) ? "from the standby" : "from the primary");

        assertThat(answer).isEqualTo("from the standby");
        assertThat(served).containsExactly("standby");
    }

    @Test
    void aReadOverItsBudgetOnTheStandbyIsNotRunAgain() {
        assertThatThrownBy(() -> routedTo(new StandbyRead("standby", standby, 0, true))
                        .run(handle -> onStandby(handle) ? raise(handle, "57014") : "from the primary"))
                .isInstanceOf(ReadTransaction.OverBudget.class);
        assertThat(served).isEmpty();
    }

    @Test
    void aFailureThatIsNotTheDatabasesIsNotHiddenByThePrimary() {
        assertThatThrownBy(() -> routedTo(new StandbyRead("standby", standby, 0, true))
                        .run(handle -> {
                            throw new IllegalArgumentException("a bug in the read");
                        }))
                .hasMessage("a bug in the read");
        assertThat(served).isEmpty();
    }

    private ReadTransaction routedTo(StandbyRead read) {
        ReadNodes nodes = new ReadNodes() {
            @Override
            public Jdbi primary() {
                return primary;
            }

            @Override
            public Optional<StandbyRead> standbyFor(ReadPlacement placement) {
                return Optional.of(read);
            }

            @Override
            public void standbyFailed(StandbyRead failed, RuntimeException failure) {
                failures.add(failure);
            }

            @Override
            public void served(boolean onStandby, boolean afterStandbyFailed) {
                served.add(onStandby ? "standby" : afterStandbyFailed ? "primary after standby" : "primary");
            }
        };
        return new ReadTransaction(nodes, Isolation.REPEATABLE_READ, 2_000);
    }

    private static boolean onStandby(Handle handle) {
        return handle.getJdbi() == standby;
    }

    /** Makes the server raise an error of {@code sqlState}, as a standby's recovery or a budget would. */
    private static String raise(Handle handle, String sqlState) {
        handle.execute("DO $$ BEGIN RAISE EXCEPTION 'canceling statement as a standby would' USING ERRCODE = '"
                + sqlState + "'; END $$");
        throw new AssertionError("the server did not raise " + sqlState);
    }
}
