/**
 * The SMS demo on entity queues (errand-jpa): the JPA entity {@code SmsMessage} embeds its own queue states,
 * saving it is the enqueue, a flaky gateway fails often, and each message is retried a limited number of
 * times after a fixed delay. Run it with {@code mvn -q -pl errand-examples -am spring-boot:run -Pjpa-demo}.
 */
package dev.errand.examples.jpa;
