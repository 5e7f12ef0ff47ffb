package dev.errand.internal.schedule;

import dev.errand.config.Names;
import dev.errand.enqueue.Enqueued;
import dev.errand.error.ErrandException;
import dev.errand.internal.store.Jdbc;
import dev.errand.internal.store.Storage;
import dev.errand.schedule.Schedule;
import dev.errand.schedule.ScheduleAdmin;
import dev.errand.schedule.ScheduleInfo;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** The schedule admin API on the schedule table: checks the arguments, then runs each action in its own transaction. */
public final class JdbcScheduleAdmin implements ScheduleAdmin {

    private final Storage storage;
    private final ScheduleStore schedules;
    private final ScheduleChanges changes;
    private final ScheduleChecks checks;
    private final ManualRuns manualRuns;

    /**
     * Creates the admin API.
     *
     * @param storage the node's storage, for its transactions and clock
     * @param schedules the schedule table
     * @param changes how declarations and changes are applied to it
     * @param checks what this node refuses to store: unregistered kinds, undeclared queues, unfit payloads
     * @param manualRuns how a schedule's task is run by hand
     */
    public JdbcScheduleAdmin(
            Storage storage,
            ScheduleStore schedules,
            ScheduleChanges changes,
            ScheduleChecks checks,
            ManualRuns manualRuns) {
        this.storage = storage;
        this.schedules = schedules;
        this.changes = changes;
        this.checks = checks;
        this.manualRuns = manualRuns;
    }

    @Override
    public List<ScheduleInfo> list() {
        return run("list", c -> {
            Instant now = now(c);
            return schedules.list(c).stream().map(stored -> stored.info(now)).toList();
        });
    }

    @Override
    public Optional<ScheduleInfo> find(String name) {
        if (!storable(name)) {
            return Optional.empty();
        }
        return run("find", c -> {
            Instant now = now(c);
            return schedules.find(c, name, false).map(stored -> stored.info(now));
        });
    }

    @Override
    public void upsert(Schedule schedule) {
        String payloadJson = checks.payloadJson(schedule);
        run("upsert", c -> {
            changes.upsert(c, schedule, payloadJson, now(c));
            return null;
        });
    }

    @Override
    public boolean pause(String name) {
        if (!storable(name)) {
            return false;
        }
        return run("pause", c -> changes.pause(c, name, now(c)));
    }

    @Override
    public boolean resume(String name) {
        if (!storable(name)) {
            return false;
        }
        return run("resume", c -> changes.resume(c, name, now(c)));
    }

    @Override
    public boolean remove(String name) {
        if (!storable(name)) {
            return false;
        }
        return run("remove", c -> changes.remove(c, name, now(c)));
    }

    @Override
    public Optional<Enqueued> runNow(String name) {
        if (!storable(name)) {
            return Optional.empty();
        }
        String[] queue = new String[1];
        Optional<Enqueued> enqueued = run("run now", c -> {
            Optional<ScheduleStore.Stored> stored = schedules.find(c, name, false);
            if (stored.isEmpty()) {
                return Optional.<Enqueued>empty();
            }
            queue[0] = stored.get().columns().queue();
            return Optional.of(manualRuns.insert(c, stored.get(), now(c)));
        });
        enqueued.ifPresent(task -> manualRuns.wake(queue[0]));
        return enqueued;
    }

    /** The database's time, as the firing nodes read it, so that the slot written ahead is told right. */
    private Instant now(Connection c) throws SQLException {
        return schedules.now(c);
    }

    private <T> T run(String operation, Jdbc.ConnectionWork<T> work) {
        try {
            return storage.transactions().run("schedule admin", work);
        } catch (SQLException e) {
            throw new ErrandException("schedule " + operation, e);
        }
    }

    /**
     * Whether a row can hold the name asked for. Any name a row holds is taken, including one written by SQL
     * that the builder would refuse (blank, padded, with control characters), so that such a row can be found,
     * fixed and removed; a name no row can hold finds none without a round trip.
     *
     * @throws IllegalArgumentException for null, or a name longer than the column
     */
    private boolean storable(String name) {
        if (name == null) {
            throw new IllegalArgumentException(
                    "A schedule name must not be null; list() gives the names of the stored schedules");
        }
        if (name.length() > Schedule.MAX_NAME_LENGTH) {
            throw new IllegalArgumentException("A schedule name is at most " + Schedule.MAX_NAME_LENGTH
                    + " characters, got " + Names.echo(name) + "; list() gives the names of the stored schedules");
        }
        // PostgreSQL stores no NUL, and refuses one in a parameter with an error.
        return storage.dialect().acceptsNul() || name.indexOf('\0') < 0;
    }
}
