package dev.errand.spring.jpa;

import org.springframework.data.jpa.repository.JpaRepository;

/** Spring Data JPA repository of {@link Account}. */
public interface AccountRepository extends JpaRepository<Account, Long> {}
