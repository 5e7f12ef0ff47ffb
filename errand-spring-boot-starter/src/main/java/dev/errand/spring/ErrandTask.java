package dev.errand.spring;

import dev.errand.task.ExecutionMode;
import dev.errand.task.LeaseExpiryAction;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.core.annotation.AliasFor;

/**
 * Registers a Spring bean, or one method of a Spring bean, as the handler of one task kind.
 *
 * <p><b>On a class</b> (or a {@code @Bean} method): the bean must implement
 * {@link dev.errand.task.TaskHandler}; the handler's type argument is the payload type. If the bean also
 * implements {@link dev.errand.task.FailureCallback}, it becomes the kind's failure callback.
 *
 * <p><b>On a method</b> of any bean: the method is the handler. It takes the payload (any type Jackson can
 * read; {@code Void} for a kind without payload) and, optionally, the {@link dev.errand.task.TaskContext}, in
 * either order, and returns {@code void}. It may not be static or private. What it throws fails the attempt,
 * as a {@code TaskHandler}'s would. The starter checks every method at start-up and names the bean, the method
 * and what to fix.
 *
 * <pre>{@code
 * @Service
 * class Billing {
 *     @ErrandTask(kind = "send-invoice", maxAttempts = 5)
 *     void sendInvoice(Invoice invoice, TaskContext context) { ... }
 * }
 * }</pre>
 *
 * <p>The class form:
 *
 * <pre>{@code
 * @Component
 * @ErrandTask(kind = "send-sms", maxAttempts = 4, retry = ErrandTask.Retry.EXPONENTIAL,
 *         retryDelay = "1s", retryMaxDelay = "1m")
 * class SendSms implements TaskHandler<Sms> { ... }
 * }</pre>
 *
 * <p>Options left at their defaults fall back to the engine's ({@code errand.*} properties). An
 * {@link ErrandTaskCustomizer} bean can change every option after the annotation is read. Two beans that
 * claim the same kind stop start-up.
 *
 * <p>The class form may also sit on a {@code @Bean} method that returns the handler. Duration attributes accept the formats of
 * {@code errand.*} properties ({@code "500ms"}, {@code "30s"}, {@code "PT1M"}) and {@code ${…}}
 * placeholders.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface ErrandTask {

    /** The task kind: 1 to 200 characters, unique in the application. An alias of {@link #kind()}. */
    @AliasFor("kind")
    String value() default "";

    /** The task kind: 1 to 200 characters, unique in the application. An alias of {@link #value()}. */
    @AliasFor("value")
    String kind() default "";

    /** How the handler runs relative to the transaction that completes the task. */
    ExecutionMode mode() default ExecutionMode.TRANSACTIONAL;

    /** The most attempts for tasks of this kind, 1 to 1000; 0 (the default) means {@code errand.default-max-attempts}. */
    int maxAttempts() default 0;

    /** The retry policy; {@link Retry#DEFAULT} uses the engine's. */
    Retry retry() default Retry.DEFAULT;

    /** {@link Retry#FIXED}: the delay between attempts. {@link Retry#EXPONENTIAL}: the first delay. */
    String retryDelay() default "";

    /** {@link Retry#EXPONENTIAL}: the longest delay (the cap). */
    String retryMaxDelay() default "";

    /**
     * {@link Retry#DELAYS}: the delay after each failed attempt, in order, such as
     * {@code {"10s", "20s", "30s"}}. Unless {@link #maxAttempts()} is set, the kind then has one attempt more
     * than delays (4 here).
     */
    String[] retryDelays() default {};

    /**
     * The lease that heartbeats keep while a {@link ExecutionMode#NON_TRANSACTIONAL} handler runs, for
     * example {@code "5m"}; empty for {@code errand.lease-duration}.
     */
    String leaseDuration() default "";

    /**
     * The longest one attempt may run before its handler is interrupted and the attempt fails, for example
     * {@code "30s"}; empty for no limit. See {@code TaskDefinition.Builder#executionTimeout}.
     */
    String executionTimeout() default "";

    /**
     * The most tasks of this kind running at once across the whole cluster, 1 to 10,000; 0 (the default) for no
     * limit. See {@code TaskDefinition.Builder#concurrencyLimit} and docs/FLOW-CONTROL.md.
     */
    int concurrencyLimit() default 0;

    /**
     * The most tasks of this transactional kind that run in one database transaction and commit together, each
     * under a savepoint, 1 to 1,000; 1 (the default) for one transaction per task. See {@code
     * TaskDefinition.Builder#groupCommit} and docs/GROUP-COMMIT.md.
     */
    int groupCommit() default 1;

    /**
     * The most tasks of this kind with one limit key running at once across the cluster, 1 to 10,000 (1: mutual
     * exclusion per key); 0 (the default) for none. See {@code TaskDefinition.Builder#concurrencyLimitPerKey}.
     */
    int concurrencyLimitPerKey() default 0;

    /**
     * The most tasks of this kind that start in any window of {@link #ratePeriod()} across the cluster, 1 to 10,000;
     * 0 (the default) for none. Needs {@code ratePeriod}. See {@code TaskDefinition.Builder#rateLimit}.
     */
    int rateLimit() default 0;

    /**
     * The most tasks of this kind with one limit key that start in any window of {@link #ratePeriod()} across the
     * cluster, 1 to 10,000; 0 (the default) for none. Keys are limited apart; tasks without a key are not limited.
     * Needs {@code ratePeriod}. See {@code TaskDefinition.Builder#rateLimitPerKey}.
     */
    int rateLimitPerKey() default 0;

    /**
     * The window of {@link #rateLimit()} or {@link #rateLimitPerKey()}, for example {@code "1m"}: 1 ms to 24 h, in
     * whole milliseconds; empty (the default) without a rate limit. Placeholders are resolved.
     */
    String ratePeriod() default "";

    /**
     * Where each task's limit key is read from its payload at enqueue: a top-level field name such as {@code
     * "customerId"} or a JSON pointer such as {@code "/customer/id"}; empty (the default) for keys given on the
     * request only. See {@code TaskDefinition.Builder#limitKeyFrom}.
     */
    String limitKeyFrom() default "";

    /** What rescue does when the worker running a task of this kind is lost. */
    LeaseExpiryAction onLeaseExpired() default LeaseExpiryAction.RETRY;

    /**
     * The payload class, for a class-level handler bean whose class does not state the handler's type argument (a raw
     * {@code TaskHandler}, or a {@code @Bean} method that returns the interface). {@code void.class}
     * (the default) reads it from the bean's class. On a method it must be left out: the payload parameter
     * gives the type.
     */
    Class<?> payload() default void.class;

    /** Retry policies that the annotation can name. Use an {@link ErrandTaskCustomizer} for any other. */
    enum Retry {
        /** The engine's default policy ({@code ErrandBuilder.defaultRetryPolicy}). */
        DEFAULT,
        /** {@code retryDelay} after every failed attempt. */
        FIXED,
        /** {@code retryDelay}, doubling after each failure up to {@code retryMaxDelay}, with ±20% jitter. */
        EXPONENTIAL,
        /** The listed {@code retryDelays}, one per failed attempt. */
        DELAYS
    }
}
