// Tasks: the filtered list in keyset pages with its count and bulk actions, and one task with its payload, errors,
// attempts, chain and actions.
import { h, link, table, stateBadge, time, fields, pretty, query, replace, seconds } from './dom.js';
import { get, send, segment } from './api.js';
import { actionButton, canAct, flash, refresh, navigateKeepingFlash } from './ui.js';

const STATES = ['pending', 'waiting', 'running', 'succeeded', 'failed', 'cancelled'];
const TIMES = { created: 'created', runAt: 'run at', finished: 'finished' };
// What each bulk action changes, as the confirmation says it.
const BULK = [
  ['retry', 'Retry', 'run again now those that are failed or cancelled'],
  ['cancel', 'Cancel', 'cancel those that are pending or waiting'],
  ['delete', 'Delete', 'delete them for good, in any state'],
  ['reschedule', 'Reschedule', 'move those that are pending to the time given'],
  ['priority', 'Set priority', 'give those that are pending or waiting the priority given'],
];

/** The API's filter from the page's hash parameters. */
function apiFilter(params) {
  const filter = { state: params.state, kind: params.kind, queue: params.queue, node: params.node, error: params.error,
    within: params.within };
  if (params.time in TIMES) {
    filter[params.time + 'From'] = params.from;
    filter[params.time + 'Before'] = params.until;
  }
  for (const name of Object.keys(filter)) if (!filter[name]) delete filter[name];
  return filter;
}

/** An instant as the value of a datetime-local input, in the browser's zone. */
function localInput(instant) {
  if (!instant) return '';
  const date = new Date(instant);
  if (isNaN(date)) return '';
  return new Date(date.getTime() - date.getTimezoneOffset() * 60000).toISOString().slice(0, 19);
}

function instantOf(local) {
  return local ? new Date(local).toISOString() : '';
}

export async function tasksPage(params) {
  const order = params.order === 'asc' ? 'asc' : 'desc';
  const limit = params.limit || 50;
  const filter = apiFilter(params);
  const page = await get('tasks', { ...filter, order, limit, after: params.after, before: params.before });
  const chosen = new Set((params.state || '').split(',').filter(Boolean));
  const form = h('form', { class: 'filters', id: 'task-filters' },
    h('fieldset', { class: 'states' }, h('legend', {}, 'state'),
      STATES.map(state => h('label', { class: 'check' },
        h('input', { type: 'checkbox', name: 'state', value: state, checked: chosen.has(state) }), state))),
    h('label', {}, 'kind', h('input', { name: 'kind', value: params.kind || '', size: 18 })),
    h('label', {}, 'queue', h('input', { name: 'queue', value: params.queue || '', size: 10 })),
    h('label', {}, 'node', h('input', { name: 'node', value: params.node || '', size: 10 })),
    h('label', {}, 'error contains', h('input', { name: 'error', value: params.error || '', size: 16, maxlength: 200 })),
    h('label', {}, 'time', h('select', { name: 'time' }, Object.entries(TIMES).map(([value, text]) =>
      h('option', { value, selected: (params.time || 'created') === value }, text)))),
    h('label', {}, 'from', h('input', { type: 'datetime-local', step: 1, name: 'from', value: localInput(params.from) })),
    h('label', {}, 'before', h('input', { type: 'datetime-local', step: 1, name: 'until', value: localInput(params.until) })),
    h('label', {}, 'order', h('select', { name: 'order' },
      h('option', { value: 'desc', selected: order === 'desc' }, 'newest first'),
      h('option', { value: 'asc', selected: order === 'asc' }, 'oldest first'))),
    h('label', {}, 'per page', h('input', { name: 'limit', type: 'number', min: 1, max: 1000, value: limit })),
    h('button', { type: 'submit', class: 'primary' }, 'Filter'));
  form.addEventListener('submit', event => {
    event.preventDefault();
    const data = new FormData(form);
    const from = instantOf(data.get('from'));
    const until = instantOf(data.get('until'));
    location.hash = '#/tasks' + query({
      state: data.getAll('state').join(','), kind: data.get('kind').trim(), queue: data.get('queue').trim(),
      node: data.get('node').trim(), error: data.get('error'), time: from || until ? data.get('time') : '',
      from, until, order: data.get('order') === 'desc' ? '' : 'asc',
      limit: data.get('limit') === '50' ? '' : data.get('limit') });
  });
  const base = { ...params, after: '', before: '' };
  const forward = order === 'asc' ? 'after' : 'before';
  const backward = order === 'asc' ? 'before' : 'after';
  const view = h('div', { id: 'tasks' },
    h('h1', {}, 'Tasks'),
    form,
    h('p', { id: 'task-total' }, countText(page.count, page.countExact)),
    page.withinSeconds ? h('p', { class: 'muted', id: 'task-window' }, 'Only tasks that ended in the last ',
      seconds(page.withinSeconds), ' are searched (no index serves text in an error), so tasks waiting for a retry',
      ' are left out. ', link('Search every task', '#/tasks', { ...base, within: 'all' }), '.') : null,
    table([
      ['id', t => link(String(t.id), '#/tasks/' + t.id), { num: true }],
      ['kind', t => t.kind],
      ['queue', t => t.queue],
      ['state', t => stateBadge(t.state)],
      ['attempts', t => t.attempt + ' / ' + t.maxAttempts, { num: true }],
      ['run at', t => time(t.runAt)],
      ['node', t => t.leaseOwner || ''],
      ['last error', t => t.lastError || '', { class: 'error' }],
    ], page.items, 'No task matches.'),
    h('div', { class: 'pager' },
      page.previous !== null ? link('← previous', '#/tasks', { ...base, [backward]: page.previous }) : null,
      page.next !== null ? link('next →', '#/tasks', { ...base, [forward]: page.next }) : null),
    bulkActions(filter),
    recentJobs());
  return { node: view };
}

function countText(count, exact) {
  const n = count.toLocaleString('en');
  return (exact ? '' : 'about ') + n + (count === 1 ? ' task matches' : ' tasks match');
}

/** Bulk actions on the current filter: count first, confirm, then act on the ids counted (upToId). */
function bulkActions(filter) {
  if (!canAct()) return null;
  const status = h('div', { id: 'bulk-confirm' });
  const runAt = h('input', { type: 'datetime-local', step: 1, name: 'bulkRunAt' });
  const priority = h('input', { type: 'number', min: 1, max: 10, value: 5, name: 'bulkPriority', size: 3 });
  const start = async (action, label, effect) => {
    const extra = {};
    if (action === 'reschedule') {
      if (!runAt.value) { flash('Choose the new run time first', true); return; }
      extra.runAt = instantOf(runAt.value);
    }
    if (action === 'priority') extra.priority = Number(priority.value);
    let counted;
    try {
      counted = await get('tasks/bulk-count', filter);
    } catch (error) {
      flash(label + ' failed: ' + error.message, true);
      return;
    }
    if (counted.count === 0) {
      replace(status, h('p', { class: 'muted' }, 'No task matches the filter.'));
      return;
    }
    // The action runs in the background on the server: the answer is its job, watched until it ends.
    const run = h('button', { type: 'button', class: 'danger', 'data-action': 'bulk-run',
      onclick: async () => {
        run.disabled = true;
        let job;
        try {
          job = await send('tasks/bulk/' + action, { filter, upToId: counted.highestId, ...extra });
        } catch (error) {
          flash(label + ' failed: ' + error.message, true);
          run.disabled = false;
          return;
        }
        await watchJob(job, label, status);
      } }, 'Yes, ' + label.toLowerCase() + ' them');
    replace(status, h('div', { class: 'inline confirm' },
      h('span', { id: 'bulk-count' }, counted.count.toLocaleString('en') + (counted.count === 1 ? ' task matches' : ' tasks match')
        + ' the filter now. ' + label + ': ' + effect + '?'), run,
      h('button', { type: 'button', onclick: () => replace(status) }, 'No')));
  };
  return h('div', { id: 'bulk' },
    h('h2', {}, 'Bulk actions on this filter'),
    h('div', { class: 'actions' },
      BULK.map(([action, label, effect]) => [
        action === 'reschedule' ? runAt : action === 'priority' ? priority : null,
        h('button', { type: 'button', class: action === 'retry' ? 'primary' : 'danger', 'data-bulk': action,
          onclick: () => start(action, label, effect) }, label + '…')])),
    status);
}

/** The bulk actions this node runs or ran lately (the records live on the node that runs them). */
function recentJobs() {
  const section = h('div', { id: 'bulk-jobs' });
  get('bulk-jobs').then(data => {
    if (!data.items.length) return;
    replace(section, h('h2', {}, 'Bulk actions on node ' + data.nodeId),
      table([
        ['action', j => j.action],
        ['state', j => h('span', { class: 'state state-' + (j.state === 'finished' ? 'succeeded' : j.state), 'data-job-state': j.state }, j.state)],
        ['done', j => j.matched.toLocaleString('en') + (j.total === null ? '' : ' of ' + j.total.toLocaleString('en')), { num: true }],
        ['changed', j => j.changed.toLocaleString('en'), { num: true }],
        ['skipped', j => j.skipped.toLocaleString('en'), { num: true }],
        ['by', j => j.startedBy || ''],
        ['started', j => time(j.startedAt)],
        ['ended', j => time(j.endedAt)],
        ['error', j => j.error || '', { class: 'error' }],
      ], data.items));
  }).catch(() => {});
  return section;
}

/** A bulk job's progress as text. */
function jobText(job, label) {
  const of = job.total === null ? '' : ' of ' + job.total.toLocaleString('en');
  const done = job.matched.toLocaleString('en') + of + ' tasks done (' + job.changed.toLocaleString('en')
    + ' changed, ' + job.skipped.toLocaleString('en') + ' skipped, ' + job.chunks
    + (job.chunks === 1 ? ' chunk)' : ' chunks)');
  if (job.state === 'running') return label + ' running: ' + done;
  if (job.state === 'finished') return label + ' finished: ' + done;
  return label + ' failed after ' + done + ': ' + (job.error || 'no reason given');
}

/** Redraws a bulk job's progress every second until it ends, while the page shows it. */
async function watchJob(first, label, status) {
  let job = first;
  const line = h('p', { id: 'bulk-job' });
  replace(status, line);
  for (;;) {
    line.setAttribute('data-state', job.state);
    replace(line, jobText(job, label));
    if (job.state !== 'running') break;
    await new Promise(resolve => setTimeout(resolve, 1000));
    if (!line.isConnected) return;
    try {
      job = await get('bulk-jobs/' + segment(job.id));
    } catch (error) {
      flash(label + ': its progress cannot be read: ' + error.message, true);
      return;
    }
  }
  // The end stays in the flash; the list is drawn again to show what changed.
  flash(jobText(job, label), job.state !== 'finished');
  if (line.isConnected) await refresh();
}

export async function taskPage(id) {
  const data = await get('tasks/' + segment(id));
  const task = data.task;
  const actions = data.actions;
  const path = 'tasks/' + segment(id);
  const buttons = [];
  if (actions.includes('retry')) buttons.push(actionButton('Retry now', () => send(path + '/retry'), { primary: true, name: 'retry' }));
  if (actions.includes('cancel')) buttons.push(actionButton('Cancel', () => send(path + '/cancel'), { danger: true, name: 'cancel', confirm: 'Cancel task ' + id + '?' }));
  if (actions.includes('request-cancel')) buttons.push(actionButton('Ask to stop', () => send(path + '/request-cancel'), { danger: true, name: 'request-cancel', confirm: 'Ask task ' + id + ' to stop?' }));
  if (actions.includes('delete')) buttons.push(actionButton('Delete', () => send(path, {}, 'DELETE'), {
    danger: true, name: 'delete', confirm: 'Delete task ' + id + ' for good?',
    done: () => { setTimeout(() => navigateKeepingFlash('#/tasks'), 0); return 'Task ' + id + ' deleted'; } }));
  let reschedule = null;
  if (actions.includes('reschedule') && canAct()) {
    const input = h('input', { type: 'datetime-local', name: 'runAt', step: 1 });
    reschedule = h('span', { class: 'inline' }, input,
      actionButton('Reschedule', () => {
        if (!input.value) return Promise.reject(new Error('choose a date and time'));
        return send(path + '/reschedule', { runAt: new Date(input.value).toISOString() });
      }, { name: 'reschedule' }));
  }
  let priority = null;
  if (actions.includes('priority') && canAct()) {
    const input = h('input', { type: 'number', name: 'priority', min: 1, max: 10, value: task.priority, size: 3 });
    priority = h('span', { class: 'inline' }, input,
      actionButton('Set priority', () => send(path + '/priority', { priority: Number(input.value) }), { name: 'priority' }));
  }
  const view = h('div', { id: 'task' },
    h('h1', {}, 'Task ' + task.id + ' ', stateBadge(task.state)),
    h('div', { class: 'actions' }, buttons, reschedule, priority),
    fields([
      ['kind', h('span', { id: 'task-kind' }, task.kind)],
      ['queue', task.queue],
      ['state', stateBadge(task.state)],
      ['priority', String(task.priority)],
      ['attempts', task.attempt + ' of at most ' + task.maxAttempts],
      ['run at', time(task.runAt)],
      ['created', time(task.createdAt)],
      ['started', time(task.startedAt)],
      ['finished', time(task.finishedAt)],
      ['lease', task.leaseOwner ? [task.leaseOwner, ' until ', time(task.leaseExpiresAt)] : '—'],
      ['unique key', task.uniqueKey || '—'],
      ['progress', progress(data.progress)],
    ]),
    h('h2', {}, 'Payload'),
    h('div', { id: 'task-payload' }, pretty(task.payload)),
    h('h2', {}, 'Last error'),
    h('div', { id: 'task-error' }, task.lastError ? h('pre', {}, task.lastError) : h('p', { class: 'muted' }, 'None.')),
    h('h2', {}, 'Errors of earlier attempts'),
    pretty(task.errors),
    h('h2', {}, 'Attempts'),
    data.historyEnabled ? attempts(data.attempts)
      : h('p', { class: 'muted' }, 'The attempt history is off (errand.history-enabled); the errors above come from the task row.'),
    h('h2', {}, 'Continuation chain'),
    data.chain.length > 1
      ? h('ol', {}, data.chain.map(step => h('li', {}, String(step) === String(id) ? h('strong', {}, 'task ' + step)
        : link('task ' + step, '#/tasks/' + step))))
      : h('p', { class: 'muted' }, 'No predecessor or successor.'));
  // A task that runs, or is about to, is shown again until it has moved on; a later one is left alone, so that
  // the reschedule field is not reset while someone types in it.
  const soon = task.state === 'running' || (task.state === 'pending' && new Date(task.runAt) - Date.now() < 5000);
  return { node: view, refreshSeconds: soon ? 2 : 0 };
}

// The progress the running attempt reported (TaskContext.progress), or a dash; the message is text, never markup.
function progress(p) {
  if (!p) return h('span', { id: 'task-progress', class: 'muted' }, '—');
  return h('span', { id: 'task-progress' },
    h('progress', { max: p.total, value: p.done }),
    ' ' + p.done.toLocaleString('en') + ' of ' + p.total.toLocaleString('en'),
    p.message ? ': ' + p.message : '',
    ' (', time(p.updatedAt), ')');
}

function attempts(list) {
  return h('div', { id: 'task-attempts' }, table([
    ['#', a => String(a.attempt), { num: true }],
    ['outcome', a => a.outcome],
    ['node', a => a.node || '—'],
    ['started', a => time(a.startedAt)],
    ['finished', a => time(a.finishedAt)],
    ['duration', a => a.durationMillis === null ? '—' : a.durationMillis + ' ms', { num: true }],
    ['error', a => a.error ? [a.error.type, a.error.message ? ': ' + a.error.message : ''] : '', { class: 'error' }],
    ['details', a => (a.error && a.error.stackTrace) || a.logs ? h('details', {}, h('summary', {}, 'stack trace and log'),
      a.error && a.error.stackTrace ? h('pre', { class: 'stack' }, a.error.stackTrace) : null,
      a.logs ? h('pre', { class: 'logs' }, a.logs) : null) : ''],
  ], list, 'No attempt recorded yet.'));
}

export { flash };
