package chat.buzz.relay.database;

import java.sql.Connection;
import java.sql.DriverManager;
import java.util.concurrent.CountDownLatch;
import liquibase.database.Database;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.lockservice.LockServiceFactory;

/** A migrator in its own JVM that takes the migration lock and keeps it until it is killed. */
public final class MigrationLockHolder {
    public static final String LOCKED = "holding the migration lock";

    private MigrationLockHolder() {}

    public static void main(String[] args) throws Exception {
        Connection connection = DriverManager.getConnection(args[0], "postgres", "");
        Database database =
                DatabaseFactory.getInstance().findCorrectDatabaseImplementation(new JdbcConnection(connection));
        LockServiceFactory.getInstance().getLockService(database).waitForLock();
        System.out.println(LOCKED);
        System.out.flush();
        new CountDownLatch(1).await();
    }
}
