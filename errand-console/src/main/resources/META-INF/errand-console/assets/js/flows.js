// Schedules, batches, processes and events.
import { h, link, table, time, fields, yesNo, query } from './dom.js';
import { get, send, segment } from './api.js';
import { actionButton, flash, navigateKeepingFlash } from './ui.js';
import { callbackList } from './graphs.js';

export async function schedulesPage() {
  const data = await get('schedules');
  const view = h('div', { id: 'schedules' },
    h('h1', {}, 'Schedules'),
    table([
      ['name', s => s.name],
      ['kind', s => link(s.kind, '#/tasks', { kind: s.kind })],
      ['queue', s => s.queue],
      ['timing', s => s.timing],
      ['zone', s => s.zone],
      ['misfire', s => s.misfire],
      ['paused', s => s.paused ? h('span', { class: 'bad' }, 'paused') : yesNo(false)],
      ['next slot', s => time(s.nextRunAt)],
      ['last slot', s => time(s.lastRunAt)],
      ['', s => [s.paused
        ? actionButton('Resume', () => send('schedules/resume', { name: s.name }), { name: 'resume-schedule' })
        : actionButton('Pause', () => send('schedules/pause', { name: s.name }), { name: 'pause-schedule' }),
      ' ',
      actionButton('Run now', () => send('schedules/run-now', { name: s.name }), { name: 'run-schedule-now',
        done: r => r.created ? 'Schedule ' + r.name + ' runs now as task ' + r.taskId
          : 'Schedule ' + r.name + ' already runs this second as task ' + r.taskId })]],
    ], data.items, 'No schedule.'));
  return { node: view };
}

export async function batchPage(id) {
  const b = await get('batches/' + segment(id));
  const done = b.succeeded + b.failed + b.cancelled;
  const callbacks = Object.entries(b.firedCallbacks);
  const view = h('div', { id: 'batch' },
    h('h1', {}, 'Batch ' + b.batchId),
    h('div', { class: 'actions' }, b.finished ? null : actionButton('Cancel batch',
      () => send('batches/' + segment(id) + '/cancel'),
      { danger: true, name: 'cancel-batch', confirm: 'Cancel the unstarted tasks of batch ' + id + '?',
        done: r => r.cancelledTasks + ' tasks cancelled' })),
    h('p', {}, h('progress', { max: b.total || 1, value: done }), ' ',
      h('span', { id: 'batch-progress' }, done + ' of ' + b.total + ' finished')),
    fields([
      ['succeeded', String(b.succeeded)],
      ['failed', String(b.failed)],
      ['cancelled', String(b.cancelled)],
      ['not finished', String(b.pending)],
      ['finished', h('span', { id: 'batch-finished' }, b.finished ? 'yes' : 'no')],
      ['cancelled at', time(b.cancelledAt)],
    ]),
    h('h2', {}, 'Callbacks'),
    h('p', { id: 'batch-declared' }, callbackList(b.callbacks)),
    h('h2', {}, 'Callbacks that fired'),
    h('div', { id: 'batch-callbacks' }, table([
      ['event', c => c[0]],
      ['callback task', c => link('task ' + c[1], '#/tasks/' + c[1])],
    ], callbacks, 'None yet.')));
  return { node: view, refreshSeconds: b.finished && callbacks.length ? 0 : 2 };
}

const PROCESS_STATES = ['initializing', 'running', 'succeeded', 'failed', 'cancelled'];
const PROCESS_ENDED = ['succeeded', 'failed', 'cancelled'];

export async function processesPage(params) {
  const data = await get('processes', { state: params.state, limit: params.limit });
  const select = h('select', { name: 'state' }, h('option', { value: '' }, 'any'),
    PROCESS_STATES.map(s => h('option', { value: s, selected: params.state === s }, s)));
  select.addEventListener('change', () => { location.hash = '#/processes' + query({ state: select.value }); });
  return { node: h('div', { id: 'processes' },
    h('h1', {}, 'Processes'),
    h('div', { class: 'filters' }, h('label', {}, 'state', select)),
    table([
      ['id', p => link(p.id, '#/process', { id: p.id })],
      ['process', p => p.name],
      ['state', p => p.state],
      ['turn', p => String(p.turn), { num: true }],
      ['batches', p => String(p.batches), { num: true }],
      ['rows read', p => String(p.rowsRead), { num: true }],
      ['created', p => time(p.createdAt)],
      ['finished', p => time(p.finishedAt)],
      ['error', p => p.error || '', { class: 'error' }],
    ], data.items, 'No process.')) };
}

export async function processPage(params) {
  const data = await get('process', { id: params.id });
  const p = data.process;
  const back = () => { setTimeout(() => navigateKeepingFlash('#/processes'), 0); return 'Process deleted'; };
  return { node: h('div', { id: 'process' },
    h('h1', {}, 'Process ', p.id),
    h('div', { class: 'actions' },
      !PROCESS_ENDED.includes(p.state) ? actionButton('Cancel', () => send('processes/cancel', { id: p.id }),
        { danger: true, name: 'cancel-process', confirm: 'Cancel process ' + p.id + '?' }) : null,
      p.state === 'failed' ? actionButton('Run failed batches again', () => send('processes/rerun-failed', { id: p.id }),
        { name: 'rerun-process', done: r => r.batches + ' batches run again' }) : null,
      PROCESS_ENDED.includes(p.state) ? actionButton('Delete', () => send('processes/delete', { id: p.id }),
        { danger: true, name: 'delete-process', confirm: 'Delete process ' + p.id + '?', done: back }) : null),
    fields([
      ['process', p.name], ['state', p.state], ['turn', String(p.turn)], ['node group', p.nodeGroup || '—'],
      ['retries per batch', String(p.retries)], ['batches', String(p.batches)], ['rows read', String(p.rowsRead)], ['created', time(p.createdAt)],
      ['finished', time(p.finishedAt)], ['error', p.error || '—'],
    ]),
    h('h2', {}, 'Turns'),
    table([
      ['turn', t => String(t.turn), { num: true }],
      ['progress', t => h('progress', { max: t.batches || 1, value: t.succeeded + t.failed })],
      ['batches', t => String(t.batches), { num: true }],
      ['succeeded', t => String(t.succeeded), { num: true }],
      ['failed', t => String(t.failed), { num: true }],
      ['started', t => time(t.startedAt)],
      ['analysed', t => time(t.analysedAt)],
    ], p.turns),
    h('h2', {}, 'Failed batches'),
    table([
      ['turn', b => String(b.turn), { num: true }],
      ['batch', b => String(b.batchNumber), { num: true }],
      ['tries', b => String(b.tries), { num: true }],
      ['node', b => b.nodeId || '—'],
      ['error', b => b.error || '', { class: 'error' }],
    ], data.failedBatches, 'None.')) };
}

export async function eventsPage(params) {
  const data = await get('events', { event: params.event });
  const input = h('input', { name: 'event', size: 40, placeholder: 'event name', id: 'trigger-event' });
  const trigger = actionButton('Trigger', () => {
    if (!input.value) return Promise.reject(new Error('name the event'));
    return send('events/trigger', { event: input.value });
  }, { primary: true, name: 'trigger', done: triggered });
  return { node: h('div', { id: 'events' },
    h('h1', {}, 'Events'),
    trigger ? h('div', { class: 'inline' }, h('label', {}, 'trigger an event by hand', input), trigger) : null,
    h('h2', {}, 'Waiting tasks per event'),
    h('p', { class: 'muted' }, data.byEventComplete ? 'Every event a task waits for, most waiters first:'
      : 'The ' + data.limit + ' events with the most waiting tasks:'),
    h('div', { id: 'events-by-name' }, table([
      ['event', e => link(e.event, '#/events', { event: e.event })],
      ['waiting tasks', e => h('span', { 'data-waiters': e.event }, String(e.waitingTasks)), { num: true }],
      ['oldest', e => [link('task ' + e.oldestTaskId, '#/tasks/' + e.oldestTaskId), ' · ', time(e.oldestCreatedAt)]],
      ['', e => e.event.startsWith('errand:after:') ? h('span', { class: 'muted' }, 'workflow dependency')
        : actionButton('Trigger', () => send('events/trigger', { event: e.event }), { name: 'trigger-row', done: triggered })],
    ], data.byEvent, 'No task waits for an event.')),
    data.event ? h('h2', {}, 'Tasks waiting for ', h('code', {}, data.event)) : h('h2', {}, 'Waiting tasks, oldest first'),
    data.complete ? null : h('p', { class: 'muted' }, 'The oldest ' + data.limit + ':'),
    table([
      ['id', t => link(String(t.id), '#/tasks/' + t.id), { num: true }],
      ['kind', t => t.kind],
      ['queue', t => t.queue],
      ['enqueued', t => time(t.createdAt)],
      ['expires', t => time(t.expiresAt)],
      ['waits for', t => t.openConditions.map(c => c.event).join(', ')],
    ], data.waiting, 'None.'),
    h('h2', {}, 'Premature events'),
    table([
      ['event', e => e.event],
      ['first triggered', e => time(e.firstTriggeredAt)],
      ['last triggered', e => time(e.lastTriggeredAt)],
      ['times', e => String(e.times), { num: true }],
      ['', e => actionButton('Delete', () => send('events/delete-premature', { event: e.event }),
        { danger: true, name: 'delete-premature', confirm: 'Delete this premature event?' })],
    ], data.premature, 'None.')) };
}

function triggered(result) {
  return result.storedAsPremature ? 'No task waited for ' + result.event + '; it is stored as premature'
    : 'Triggered ' + result.event + ': ' + result.fulfilledConditions + ' conditions fulfilled, '
      + result.releasedTasks + ' tasks released';
}

export { flash };
