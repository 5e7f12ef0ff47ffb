package dev.errand.jpa.spring;

import dev.errand.jpa.testing.Message;
import org.springframework.data.jpa.repository.JpaRepository;

/** A Spring Data repository of the test entity. */
public interface MessageRepository extends JpaRepository<Message, Long> {}
