package dev.errand.spring.jpa;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A small entity that handlers change; its table gets the test's prefix from {@link JpaTransactionsTest}. */
@Entity
@Table(name = "account")
public class Account {

    @Id
    private Long id;

    private long balance;

    protected Account() {}

    public Account(long id) {
        this.id = id;
    }

    public Long getId() {
        return id;
    }

    public long getBalance() {
        return balance;
    }

    public void credit(long amount) {
        balance += amount;
    }
}
