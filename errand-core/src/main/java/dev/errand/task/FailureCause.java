package dev.errand.task;

import java.time.Duration;
import java.time.Instant;

/**
 * Why a task failed for good, as its kind's {@link FailureCallback} sees it. The three causes that
 * need different handling are told apart by type: the handler's own exception ({@link HandlerFailed}),
 * a worker that was lost ({@link WorkerLost}), a deadline that passed before the task ran
 * ({@link Expired}), a pinned node that stayed away ({@link PinnedNodeAbsent}), and the rest, where
 * Errand itself gave up.
 */
public sealed interface FailureCause {

    /** A short text for logs and the {@code last_error} column. */
    String describe();

    /**
     * The last attempt's handler threw.
     *
     * @param exceptionType the exception's class name
     * @param message its message, or {@code null}
     * @param exception the exception itself, when it was thrown on this node in this run; {@code null}
     *     when the failure was decided elsewhere
     */
    record HandlerFailed(String exceptionType, String message, Throwable exception) implements FailureCause {
        @Override
        public String describe() {
            return message == null ? exceptionType : exceptionType + ": " + message;
        }
    }

    /**
     * The node running the last attempt stopped heartbeating (it crashed, or lost the database), and
     * rescue found its lease expired.
     *
     * @param node the lost node's id
     */
    record WorkerLost(String node) implements FailureCause {
        @Override
        public String describe() {
            return "Worker lost: the lease held by node " + node + " expired";
        }
    }

    /**
     * The handler asked for another attempt ({@link RetryLater}) on its last attempt.
     *
     * @param reason the reason it gave
     */
    record RetriesExhausted(String reason) implements FailureCause {
        @Override
        public String describe() {
            return "Handler asked to retry later (" + reason + ") after its last attempt";
        }
    }

    /**
     * The stored payload does not decode into the kind's payload type; retrying cannot repair it.
     *
     * @param message what the decoder said
     */
    record UnreadablePayload(String message) implements FailureCause {
        @Override
        public String describe() {
            return message;
        }
    }

    /**
     * No node that claimed the task had a handler for its kind, and its attempts ran out.
     *
     * @param kind the task's kind
     * @param queue the task's queue
     * @param node the node that made the last attempt
     */
    record UnknownKind(String kind, String queue, String node) implements FailureCause {
        @Override
        public String describe() {
            return "No handler is registered for kind '" + kind + "' on node " + node + "; register a TaskDefinition"
                    + " for it on the nodes that serve queue '" + queue + "'";
        }
    }

    /**
     * A deadline passed before the task ran: its own ({@code condition} is {@code null}), or that of a
     * condition it was still waiting for. The handler never ran after the deadline; a retry that was
     * pending expired too.
     *
     * @param deadline the deadline that passed, on the database's clock
     * @param condition the event of the condition whose deadline it was, or {@code null} for the task's own
     */
    record Expired(Instant deadline, String condition) implements FailureCause {
        @Override
        public String describe() {
            return condition == null
                    ? "Expired: the task's deadline " + deadline + " passed before it ran"
                    : "Expired: condition '" + condition + "' was not fulfilled by its deadline " + deadline;
        }
    }

    /**
     * The task was pinned to a node that was not alive (dead, stopped, or never registered) for longer
     * than its kind's {@link dev.errand.node.PinPolicy#failAfter pin policy} allows. The handler never ran.
     *
     * @param node the node the task was pinned to
     * @param waited how long the policy let it wait past its run time
     */
    record PinnedNodeAbsent(String node, Duration waited) implements FailureCause {
        @Override
        public String describe() {
            return "Pinned to node '" + node + "', which was not alive (dead, stopped or never registered) for more"
                    + " than " + waited + " after the task's run time; failed by its kind's pin policy"
                    + " (PinPolicy.failAfter). Start that node, or pin the task to a node group instead";
        }
    }
}
