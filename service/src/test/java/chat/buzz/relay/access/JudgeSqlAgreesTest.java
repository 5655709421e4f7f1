package chat.buzz.relay.access;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.relay.access.Judge.Facts;
import chat.buzz.relay.access.Judge.Verdict;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.TestDatabases;
import java.util.List;
import java.util.UUID;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The verdict columns of {@link Judge} give, in PostgreSQL, the verdict {@link Judge#decide} gives in
 * Java, for every combination of facts of {@link JudgeTest}: the two statements of the one rule agree.
 */
@IntegrationTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JudgeSqlAgreesTest {
    private static final String VERDICTS = """
            SELECT f.ord, <verdict>
            FROM unnest(CAST(:inD AS boolean[]), CAST(:sent AS boolean[]), CAST(:held AS boolean[]), CAST(:toldLeft AS boolean[]),
                        CAST(:leftReadable AS boolean[]), CAST(:deletedReadable AS boolean[]),
                        CAST(:leftNameable AS uuid[]), CAST(:channelNameable AS uuid[]))
                 WITH ORDINALITY AS f(in_d, already_sent, could_have_held, told_left, left_readable, deleted_readable,
                                      left_nameable, channel_nameable, ord)
            ORDER BY f.ord""";

    private String url;
    private Handle handle;

    @BeforeAll
    void connect() {
        url = TestDatabases.fresh();
        handle = Jdbi.create(url, TestDatabases.USER, "").open();
    }

    @AfterAll
    void drop() {
        handle.close();
        TestDatabases.drop(url);
    }

    @Test
    void everyCombinationOfFactsGetsTheSameVerdictFromSqlAsFromJava() {
        List<Facts> all = JudgeTest.everyCombination();
        List<Verdict> fromSql = handle.createQuery(VERDICTS)
                .define("verdict", Judge.verdictColumns("f", "f.already_sent"))
                .bindArray("inD", Boolean.class, all.stream().map(Facts::inD).toArray())
                .bindArray(
                        "sent",
                        Boolean.class,
                        all.stream().map(Facts::alreadySent).toArray())
                .bindArray(
                        "held",
                        Boolean.class,
                        all.stream().map(Facts::couldHaveHeld).toArray())
                .bindArray(
                        "toldLeft",
                        Boolean.class,
                        all.stream().map(Facts::toldLeft).toArray())
                .bindArray(
                        "leftReadable",
                        Boolean.class,
                        all.stream().map(Facts::leftReadable).toArray())
                .bindArray(
                        "deletedReadable",
                        Boolean.class,
                        all.stream().map(Facts::deletedReadable).toArray())
                .bindArray(
                        "leftNameable",
                        UUID.class,
                        all.stream().map(Facts::leftNameable).toArray())
                .bindArray(
                        "channelNameable",
                        UUID.class,
                        all.stream().map(Facts::channelNameable).toArray())
                .map((rs, ctx) ->
                        Verdict.of(rs.getString("verdict"), rs.getString("reason"), rs.getObject("named", UUID.class)))
                .list();
        assertThat(fromSql).hasSize(all.size());
        for (int i = 0; i < all.size(); i++) {
            assertThat(fromSql.get(i)).as("facts %s", all.get(i)).isEqualTo(Judge.decide(all.get(i)));
        }
    }
}
