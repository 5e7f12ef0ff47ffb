package dev.errand.console.bulk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.errand.admin.BulkOptions;
import dev.errand.admin.BulkResult;
import dev.errand.console.autoconfigure.ErrandConsoleProperties;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The background runner's own rules, apart from any database (the console's API and browser tests run real bulk
 * actions through it): progress while it runs, the bound on jobs at a time, a failure's error, the stop at
 * shutdown between chunks, and bad arguments.
 */
class BulkJobsTest {

    @Test
    void aJobShowsItsProgressWhileItRunsAndItsResultWhenItEnds() throws Exception {
        try (BulkJobs jobs = new BulkJobs(1)) {
            CountDownLatch firstChunkSeen = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            BulkJob job = jobs.start("retry", "alice", BulkOptions.defaults().upToId(99), () -> 7, options -> {
                options.progress().accept(new BulkResult(4, 4, 0, 1));
                firstChunkSeen.countDown();
                waitFor(release);
                options.progress().accept(new BulkResult(7, 6, 1, 2));
                return new BulkResult(7, 6, 1, 2);
            });
            assertThat(firstChunkSeen.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(job.state()).isEqualTo(BulkJob.State.RUNNING);
            assertThat(job.total()).isEqualTo(7);
            assertThat(job.progress()).isEqualTo(new BulkResult(4, 4, 0, 1));
            assertThat(job.upToId()).isEqualTo(99);
            assertThat(job.startedBy()).isEqualTo("alice");

            assertThatThrownBy(() -> jobs.start("delete", "bob", BulkOptions.defaults(), () -> 0, options -> null))
                    .isInstanceOf(BulkJobs.BusyException.class)
                    .hasMessageContaining("errand.console.bulk-jobs");
            assertThat(jobs.list()).containsExactly(job);

            release.countDown();
            await().atMost(Duration.ofSeconds(10)).until(() -> job.state() == BulkJob.State.FINISHED);
            assertThat(job.progress()).isEqualTo(new BulkResult(7, 6, 1, 2));
            assertThat(job.endedAt()).isNotNull();
            assertThat(jobs.find(job.id())).contains(job);
            BulkJob next =
                    jobs.start("delete", "bob", BulkOptions.defaults(), () -> 0, options -> new BulkResult(0, 0, 0, 0));
            await().atMost(Duration.ofSeconds(10)).until(() -> next.state() == BulkJob.State.FINISHED);
        }
    }

    @Test
    void aFailureIsKeptWithItsErrorAndWhatWasDoneBefore() {
        try (BulkJobs jobs = new BulkJobs(2)) {
            BulkJob job = jobs.start("cancel", "alice", BulkOptions.defaults(), () -> 10, options -> {
                options.progress().accept(new BulkResult(3, 3, 0, 1));
                throw new IllegalStateException("the database went away");
            });
            await().atMost(Duration.ofSeconds(10)).until(() -> job.state() == BulkJob.State.FAILED);
            assertThat(job.error()).contains("the database went away");
            assertThat(job.progress()).isEqualTo(new BulkResult(3, 3, 0, 1));
        }
    }

    @Test
    void closingStopsARunningJobAfterItsCurrentChunk() throws Exception {
        BulkJobs jobs = new BulkJobs(1);
        CountDownLatch started = new CountDownLatch(1);
        BulkJob job = jobs.start("delete", "alice", BulkOptions.defaults(), () -> 100, options -> {
            started.countDown();
            try {
                new CountDownLatch(1).await(); // a chunk that runs until the node stops
            } catch (InterruptedException stopping) {
                Thread.currentThread().interrupt();
            }
            options.progress().accept(new BulkResult(10, 10, 0, 1));
            return new BulkResult(100, 100, 0, 10);
        });
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        jobs.close();
        assertThat(job.state()).isEqualTo(BulkJob.State.FAILED);
        assertThat(job.error()).contains("Stopped").contains("after 10 tasks").contains("run it again");
        assertThat(job.progress().matched()).isEqualTo(10);
        assertThatThrownBy(() -> jobs.start("retry", "alice", BulkOptions.defaults(), () -> 0, options -> null))
                .isInstanceOf(BulkJobs.BusyException.class)
                .hasMessageContaining("shutting down");
    }

    @Test
    void badArgumentsAreRefusedWithWhatToDo() {
        assertThatThrownBy(() -> new BulkJobs(0)).hasMessageContaining("errand.console.bulk-jobs");
        assertThatThrownBy(() -> new BulkJobs(17)).hasMessageContaining("between 1 and 16");
        assertThatThrownBy(() -> new ErrandConsoleProperties().setBulkJobs(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("errand.console.bulk-jobs");
        try (BulkJobs jobs = new BulkJobs(1)) {
            assertThatThrownBy(() -> jobs.start("retry", "alice", null, () -> 0, options -> null))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("BulkOptions");
            assertThatThrownBy(() -> jobs.start(null, "alice", BulkOptions.defaults(), () -> 0, options -> null))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThat(jobs.list()).isEmpty();
        }
    }

    private static void waitFor(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
