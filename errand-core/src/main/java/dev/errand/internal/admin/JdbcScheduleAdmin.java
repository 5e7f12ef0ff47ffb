package dev.errand.internal.admin;

import dev.errand.error.ErrandException;
import dev.errand.internal.schedule.ScheduleChanges;
import dev.errand.internal.store.Jdbc;
import dev.errand.internal.store.ScheduleStore;
import dev.errand.internal.store.Storage;
import dev.errand.schedule.Schedule;
import dev.errand.schedule.ScheduleAdmin;
import dev.errand.schedule.ScheduleInfo;
import dev.errand.spi.PayloadCodec;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** The schedule admin API on the schedule table: checks the arguments, then runs each action in its own transaction. */
public final class JdbcScheduleAdmin implements ScheduleAdmin {

    private final Storage storage;
    private final ScheduleStore schedules;
    private final ScheduleChanges changes;
    private final PayloadCodec codec;
    private final Set<String> registeredKinds;

    /**
     * Creates the admin API.
     *
     * @param storage the node's storage, for its transactions and clock
     * @param schedules the schedule table
     * @param changes how declarations and changes are applied to it
     * @param codec how payloads are written
     * @param registeredKinds the kinds this node registers: a schedule of another kind is refused
     */
    public JdbcScheduleAdmin(
            Storage storage,
            ScheduleStore schedules,
            ScheduleChanges changes,
            PayloadCodec codec,
            Set<String> registeredKinds) {
        this.storage = storage;
        this.schedules = schedules;
        this.changes = changes;
        this.codec = codec;
        this.registeredKinds = Set.copyOf(registeredKinds);
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
        requireName(name);
        return run("find", c -> {
            Instant now = now(c);
            return schedules.find(c, name, false).map(stored -> stored.info(now));
        });
    }

    @Override
    public void upsert(Schedule schedule) {
        if (schedule == null) {
            throw new IllegalArgumentException(
                    "schedule must not be null: build one with Schedule.cron(...) or" + " Schedule.every(...)");
        }
        // As at build: a schedule whose kind no node may run would fire tasks that only ever wait.
        if (!registeredKinds.contains(schedule.kind())) {
            throw new IllegalArgumentException("Schedule '" + schedule.name() + "' enqueues kind '" + schedule.kind()
                    + "', which this node does not register; register a TaskDefinition for it on the node that"
                    + " adds or changes the schedule");
        }
        String payloadJson = codec.encode(schedule.payload());
        run("upsert", c -> {
            changes.upsert(c, schedule, payloadJson, now(c));
            return null;
        });
    }

    @Override
    public boolean pause(String name) {
        requireName(name);
        return run("pause", c -> changes.pause(c, name, now(c)));
    }

    @Override
    public boolean resume(String name) {
        requireName(name);
        return run("resume", c -> changes.resume(c, name, now(c)));
    }

    @Override
    public boolean remove(String name) {
        requireName(name);
        return run("remove", c -> changes.remove(c, name, now(c)));
    }

    /** The database's time, as the firing nodes read it, so that the slot written ahead is told right. */
    private Instant now(Connection c) throws SQLException {
        return schedules.now(c, storage.offsetMicros());
    }

    private <T> T run(String operation, Jdbc.ConnectionWork<T> work) {
        try {
            return storage.transactions().run("schedule admin", work);
        } catch (SQLException e) {
            throw new ErrandException("schedule " + operation, e);
        }
    }

    private static void requireName(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("A schedule name must not be blank");
        }
    }
}
