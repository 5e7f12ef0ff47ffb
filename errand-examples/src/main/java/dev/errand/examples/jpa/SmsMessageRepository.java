package dev.errand.examples.jpa;

import dev.errand.jpa.state.QueueStatus;
import java.util.List;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

/** The messages, through Spring Data JPA. */
public interface SmsMessageRepository extends JpaRepository<SmsMessage, Long> {

    /** The messages of one run. */
    List<SmsMessage> findByBatchOrderById(String batch);

    /** How many messages of every run are still waiting in a queue or being processed. */
    @Query("SELECT COUNT(m) FROM SmsMessage m WHERE m.sendState.status IN :open OR m.crmState.status IN :open")
    long countOpen(@Param("open") List<QueueStatus> open);
}
