// The overview: counts by state per queue and kind, lag per queue, nodes and leader, health. Refreshes itself.
import { h, link, table, card, stateBadge, yesNo, seconds, time, fields } from './dom.js';
import { get, currentSession } from './api.js';
import { throughputChart } from './chart.js';

const STATES = ['pending', 'waiting', 'running', 'succeeded', 'failed', 'cancelled'];

export async function overviewPage() {
  const data = await get('overview');
  const states = data.states || {};
  const node = data.node;
  const problems = Object.entries(node.problems || {});
  const view = h('div', { id: 'overview' },
    h('h1', {}, 'Overview'),
    h('div', { class: 'cards' },
      STATES.map(state => card(state, String(states[state] || 0), 'count-' + state)),
      card('overdue (> ' + seconds(data.overdueAfterSeconds) + ')', String(data.overdue), data.overdue ? 'bad' : '')),
    h('p', { class: 'muted', id: 'counts-age' }, 'Database time ', time(data.databaseTime),
      ' · counts from ', time(data.countedAt), ' (', seconds(data.countsAgeSeconds), ' ago',
      data.countsRecounting ? ', counting again' : '', ') · refreshes every ',
      String(currentSession().refreshSeconds), ' s'),
    h('h2', {}, 'Queues'),
    table([
      ['queue', q => link(q.queue, '#/tasks', { queue: q.queue })],
      ...STATES.map(state => [state, q => q.states[state]
        ? link(String(q.states[state]), '#/tasks', { queue: q.queue, state }) : '0', { num: true }]),
      ['due', q => String(q.due), { num: true }],
      ['lag', q => seconds(q.lagSeconds), { num: true }],
      ['paused', q => q.paused ? h('span', { class: 'bad' }, 'paused') : yesNo(false)],
      ['here (running / concurrency)', q => q.concurrencyHere === null ? '—'
        : (q.executingHere + q.bufferedHere) + ' / ' + q.concurrencyHere, { num: true }],
    ], data.queues, 'No queue holds tasks.'),
    h('h2', {}, 'Kinds'),
    table([
      ['kind', k => link(k.kind, '#/tasks', { kind: k.kind })],
      ...STATES.map(state => [state, k => k.states[state]
        ? link(String(k.states[state]), '#/tasks', { kind: k.kind, state }) : '0', { num: true }]),
    ], data.kinds, 'No tasks.'),
    h('h2', {}, 'Throughput'),
    throughputChart(data.throughput),
    h('h2', {}, 'Nodes'),
    h('p', {}, 'Leader: ', data.leader ? h('strong', {}, data.leader) : h('span', { class: 'bad' }, 'none')),
    table([
      ['node', n => n.nodeId],
      ['state', n => n.state],
      ['alive', n => yesNo(n.alive)],
      ['processing', n => yesNo(n.processing)],
      ['leader', n => yesNo(n.leader)],
      ['heartbeat age', n => seconds(n.heartbeatAgeSeconds), { num: true }],
      ['host', n => n.host || '—'],
    ], data.nodes, 'No node in the registry.'),
    h('h2', {}, 'This node'),
    fields([
      ['node', node.id],
      ['database', node.dialect],
      ['processing', node.running ? 'running' : node.processingEnabled ? 'stopped' : 'disabled by configuration'],
      ['leader', yesNo(node.leader)],
      ['health', node.healthy ? h('span', { class: 'yes' }, 'healthy') : h('span', { class: 'bad' }, 'unhealthy')],
    ]),
    problems.length ? [h('h2', {}, 'Health problems'),
      table([['thread', p => p[0]], ['problem', p => p[1], { class: 'error' }]], problems)] : null,
    h('p', { class: 'note' }, 'Failed tasks: ', link('list them', '#/tasks', { state: 'failed' }), '.'),
  );
  return { node: view, refreshSeconds: currentSession().refreshSeconds };
}

export { stateBadge };
