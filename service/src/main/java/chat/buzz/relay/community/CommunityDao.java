package chat.buzz.relay.community;

import org.jdbi.v3.sqlobject.statement.SqlQuery;

public interface CommunityDao {
    @SqlQuery("""
            INSERT INTO communities (name) VALUES (?)
            ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name
            RETURNING id
            """)
    long ensure(String name);
}
