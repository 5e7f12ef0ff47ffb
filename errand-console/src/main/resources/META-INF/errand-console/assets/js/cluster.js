// The cluster: nodes, leader, queue controls, repoll, stop and start of processing, and who changed the controls.
import { h, table, time, yesNo, seconds } from './dom.js';
import { get, send } from './api.js';
import { actionButton, canAct } from './ui.js';

export async function clusterPage() {
  const data = await get('cluster');
  const controls = new Map(data.queueControls.map(c => [c.queue, c]));
  const queues = [...new Set([...Object.keys(data.queuesHere), ...controls.keys()])].sort();
  const rows = queues.map(queue => ({ queue, here: data.queuesHere[queue], control: controls.get(queue) || null }));
  const view = h('div', { id: 'cluster' },
    h('h1', {}, 'Cluster'),
    h('p', {}, 'Leader: ', data.leader ? h('strong', {}, data.leader) : h('span', { class: 'bad' }, 'none'),
      ' · database time ', time(data.databaseTime)),
    h('div', { class: 'actions' },
      actionButton('Repoll every node', () => send('cluster/repoll', {}), { name: 'repoll-all' })),
    h('h2', {}, 'Nodes'),
    table([
      ['node', n => n.nodeId + (n.nodeId === data.nodeId ? ' (this one)' : '')],
      ['groups', n => n.groups.join(', ') || '—'],
      ['host', n => (n.host || '—') + (n.pid ? ' · pid ' + n.pid : '')],
      ['version', n => n.version || '—'],
      ['state', n => n.state],
      ['alive', n => yesNo(n.alive)],
      ['processing', n => yesNo(n.processing)],
      ['running tasks', n => h('span', { 'data-running': n.nodeId }, String(n.runningTasks)), { num: true }],
      ['leader', n => yesNo(n.leader)],
      ['heartbeat age', n => seconds(n.heartbeatAgeSeconds), { num: true }],
      ['', n => n.state === 'running' ? [
        actionButton('Repoll', () => send('cluster/repoll', { node: n.nodeId }), { name: 'repoll-node' }),
        n.processing
          ? actionButton('Stop processing', () => send('cluster/stop-processing', { node: n.nodeId }),
            { danger: true, name: 'stop-node', confirm: 'Stop processing on ' + n.nodeId + '?' })
          : actionButton('Start processing', () => send('cluster/start-processing', { node: n.nodeId }),
            { name: 'start-node' })] : ''],
    ], data.nodes, 'No node in the registry.'),
    h('h2', {}, 'Queues'),
    table([
      ['queue', r => r.queue],
      ['concurrency here', r => r.here === undefined ? '—' : String(r.here), { num: true }],
      ['paused', r => r.control && r.control.paused ? h('span', { class: 'bad', 'data-paused': r.queue }, 'paused') : yesNo(false)],
      ['overrides', r => r.control ? overrides(r.control) : '—'],
      ['', r => [
        r.control && r.control.paused
          ? actionButton('Resume', () => send('queues/resume', { queue: r.queue }), { name: 'resume-queue' })
          : actionButton('Pause', () => send('queues/pause', { queue: r.queue }), { danger: true, name: 'pause-queue' }),
        r.control && (r.control.concurrency || r.control.pollIntervalMillis || r.control.claimBatchSize)
          ? actionButton('Reset overrides', () => send('queues/reset', { queue: r.queue }), { name: 'reset-queue' }) : null,
        canAct() ? changeForm(r.queue) : null]],
    ], rows, 'No queue.'),
    h('h2', {}, 'Flow limits'),
    h('p', { class: 'muted' }, 'Cluster-wide limits: tasks held back by one stay pending and spend no attempt. * marks a value set at run time.'),
    table([
      ['kind', l => h('span', { 'data-flow-limit': l.kind }, l.kind)],
      ['running at most', l => limitText(l.concurrency, l.concurrencyOverridden), { num: true }],
      ['per key', l => limitText(l.perKey, l.perKeyOverridden), { num: true }],
      ['rate', l => l.rate == null ? '—' : l.rate + (l.rateOverridden ? ' *' : '')],
      ['rate per key', l => l.ratePerKey == null ? '—' : l.ratePerKey + (l.ratePerKeyOverridden ? ' *' : '')],
      ['slots in use', l => String(l.slotsInUse), { num: true }],
      ['due, waiting', l => String(l.waiting), { num: true }],
      ['', l => actionButton('Reset to declared', () => send('flow/reset', { kind: l.kind }), { name: 'reset-flow' })],
    ], data.flowLimits, 'No kind has a flow limit.'),
    data.queueLimits.length === 0 ? null : table([
      ['queue', q => q.queue],
      ['running at most', q => limitText(q.concurrency, q.concurrencyOverridden), { num: true }],
      ['rate', q => q.rate == null ? '—' : q.rate + (q.rateOverridden ? ' *' : '')],
      ['slots in use', q => String(q.slotsInUse), { num: true }],
      ['starts in window', q => q.rate == null ? '—' : String(q.startsInWindow), { num: true }],
      ['due, waiting', q => String(q.waiting), { num: true }],
    ], data.queueLimits),
    h('h2', {}, 'Kinds'),
    h('p', { class: 'muted' }, 'Run-time overrides of a kind\'s settings on every node: maximum attempts for tasks enqueued from now on, the retry delay and the execution timeout for attempts from now on.'),
    table([
      ['kind', k => h('span', { 'data-kind-control': k.kind }, k.kind)],
      ['max attempts', k => k.maxAttempts == null ? '—' : String(k.maxAttempts), { num: true }],
      ['retry policy', k => k.retryPolicy || '—'],
      ['execution timeout', k => k.executionTimeoutMillis == null ? '—' : k.executionTimeoutMillis + ' ms', { num: true }],
      ['', k => actionButton('Reset', () => send('kinds/reset', { kind: k.kind }), { name: 'reset-kind' })],
    ], data.kindControls, 'No kind has run-time overrides.'),
    canAct() ? kindForm() : null,
    h('h2', {}, 'Retentions'),
    h('p', { class: 'muted' }, 'How long the leader keeps what has ended, set at run time for the whole cluster over what the nodes were built with; applied at the next prune.'),
    table([
      ['retention', r => h('span', { 'data-retention-control': r.retention }, r.retention)],
      ['kept for', r => seconds(r.ageSeconds), { num: true }],
      ['set', r => time(r.changedAt)],
      ['', r => actionButton('Reset', () => send('retentions/reset', { retention: r.retention }), { name: 'reset-retention' })],
    ], data.retentionControls, 'No retention is set at run time: every node keeps its own.'),
    canAct() ? retentionForm(data.retentions) : null,

    h('p', { class: 'muted' }, 'The latest ' + data.changes.length + ' changes of the cluster-wide controls, newest first.'),
    table([
      ['when', c => time(c.changedAt)],
      ['who', c => h('span', { 'data-actor': c.id }, c.actor)],
      ['action', c => c.action],
      ['target', c => c.target],
      ['values', c => c.detail || '—'],
    ], data.changes, 'No change yet.'));
  return { node: view };
}

function overrides(control) {
  const parts = [];
  if (control.concurrency) parts.push('concurrency ' + control.concurrency);
  if (control.pollIntervalMillis) parts.push('poll every ' + control.pollIntervalMillis + ' ms');
  if (control.claimBatchSize) parts.push('claim ' + control.claimBatchSize + ' at a time');
  return parts.join(', ') || 'none';
}

function changeForm(queue) {
  const concurrency = h('input', { type: 'number', min: 1, placeholder: 'concurrency', size: 8 });
  const poll = h('input', { type: 'number', min: 1, placeholder: 'poll ms', size: 8 });
  const number = input => input.value === '' ? null : Number(input.value);
  return h('details', {}, h('summary', {}, 'change'),
    h('span', { class: 'inline' }, concurrency, poll,
      actionButton('Apply', () => send('queues/change',
        { queue, concurrency: number(concurrency), pollIntervalMillis: number(poll) }), { name: 'change-queue' })));
}

function kindForm() {
  const kind = h('input', { type: 'text', name: 'kind', placeholder: 'kind', size: 16 });
  const attempts = h('input', { type: 'number', name: 'maxAttempts', min: 1, max: 1000, placeholder: 'max attempts', size: 8 });
  const retry = h('input', { type: 'number', name: 'retryDelayMillis', min: 0, placeholder: 'retry delay ms', size: 10 });
  const timeout = h('input', { type: 'number', name: 'executionTimeoutMillis', min: 10, placeholder: 'timeout ms', size: 10 });
  const number = input => input.value === '' ? null : Number(input.value);
  return h('details', { id: 'kind-form' }, h('summary', {}, 'change a kind'),
    h('span', { class: 'inline' }, kind, attempts, retry, timeout,
      actionButton('Apply', () => send('kinds/change', {
        kind: kind.value, maxAttempts: number(attempts), retryDelayMillis: number(retry),
        executionTimeoutMillis: number(timeout) }), { name: 'change-kind' })));
}

function retentionForm(names) {
  const retention = h('select', { name: 'retention' }, names.map(name => h('option', { value: name }, name)));
  const hours = h('input', { type: 'number', name: 'retentionHours', min: 1, max: 87600, placeholder: 'hours', size: 8 });
  return h('details', { id: 'retention-form' }, h('summary', {}, 'change a retention'),
    h('span', { class: 'inline' }, retention, hours,
      actionButton('Apply', () => send('retentions/change', {
        retention: retention.value, ageSeconds: hours.value === '' ? null : Number(hours.value) * 3600 }),
      { name: 'change-retention' })));
}

function limitText(value, overridden) {
  return value == null ? '—' : String(value) + (overridden ? ' *' : '');
}
