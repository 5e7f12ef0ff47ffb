-- Failed (and retried, cancelled, ...) attempts of a kind, newest first: the search operators make most. The
-- (kind, finished_at) index finds a kind's attempts, but to find its few failures among a million successes it
-- had to read them all (about 4 s at 10,000,000 attempts). This index holds only the attempts that did not
-- succeed, so successes, nearly every row, pay nothing for it. Its columns give the history's page order.
CREATE INDEX ${prefix}task_attempt_unsucceeded_idx ON ${prefix}task_attempt (kind, finished_at, id)
    WHERE outcome <> 'succeeded';
