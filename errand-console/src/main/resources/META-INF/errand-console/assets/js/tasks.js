// Tasks: the filtered list with paging, and one task with its payload, errors, attempts, chain and actions.
import { h, link, table, stateBadge, time, fields, pretty, query } from './dom.js';
import { get, send, segment } from './api.js';
import { actionButton, missing, canAct, flash } from './ui.js';

const STATES = ['pending', 'waiting', 'running', 'succeeded', 'failed', 'cancelled'];

export async function tasksPage(params) {
  const limit = Number(params.limit || 50);
  const offset = Number(params.offset || 0);
  const page = await get('tasks', { state: params.state, kind: params.kind, queue: params.queue, offset, limit });
  const form = h('form', { class: 'filters', id: 'task-filters' },
    h('label', {}, 'state', h('select', { name: 'state' },
      h('option', { value: '' }, 'any'),
      STATES.map(state => h('option', { value: state, selected: params.state === state }, state)))),
    h('label', {}, 'kind', h('input', { name: 'kind', value: params.kind || '', size: 22 })),
    h('label', {}, 'queue', h('input', { name: 'queue', value: params.queue || '', size: 14 })),
    h('label', {}, 'per page', h('input', { name: 'limit', type: 'number', min: 1, max: 1000, value: limit })),
    h('button', { type: 'submit', class: 'primary' }, 'Filter'));
  form.addEventListener('submit', event => {
    event.preventDefault();
    const values = Object.fromEntries(new FormData(form));
    location.hash = '#/tasks' + query({ state: values.state, kind: values.kind.trim(), queue: values.queue.trim(),
      limit: values.limit === '50' ? '' : values.limit });
  });
  const base = { state: params.state, kind: params.kind, queue: params.queue, limit: params.limit };
  const view = h('div', { id: 'tasks' },
    h('h1', {}, 'Tasks'),
    form,
    h('p', { id: 'task-total' }, page.total + (page.total === 1 ? ' task matches' : ' tasks match')),
    table([
      ['id', t => link(String(t.id), '#/tasks/' + t.id), { num: true }],
      ['kind', t => t.kind],
      ['queue', t => t.queue],
      ['state', t => stateBadge(t.state)],
      ['attempts', t => t.attempt + ' / ' + t.maxAttempts, { num: true }],
      ['run at', t => time(t.runAt)],
      ['last error', t => t.lastError || '', { class: 'error' }],
    ], page.items, 'No task matches.'),
    h('div', { class: 'pager' },
      offset > 0 ? link('← previous', '#/tasks', { ...base, offset: Math.max(0, offset - limit) || '' }) : null,
      h('span', { class: 'muted' }, page.items.length ? (offset + 1) + '–' + (offset + page.items.length) : ''),
      page.hasNext ? link('next →', '#/tasks', { ...base, offset: offset + limit }) : null),
    missing('Filtering by node, error text or time, keyset paging and bulk actions on a filter'));
  return { node: view };
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
    done: () => { setTimeout(() => { location.hash = '#/tasks'; }, 0); return 'Task ' + id + ' deleted'; } }));
  let reschedule = null;
  if (actions.includes('reschedule') && canAct()) {
    const input = h('input', { type: 'datetime-local', name: 'runAt', step: 1 });
    reschedule = h('span', { class: 'inline' }, input,
      actionButton('Reschedule', () => {
        if (!input.value) return Promise.reject(new Error('choose a date and time'));
        return send(path + '/reschedule', { runAt: new Date(input.value).toISOString() });
      }, { name: 'reschedule' }));
  }
  const view = h('div', { id: 'task' },
    h('h1', {}, 'Task ' + task.id + ' ', stateBadge(task.state)),
    h('div', { class: 'actions' }, buttons, reschedule),
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
      : h('p', { class: 'muted' }, 'No predecessor or successor.'),
    h('h2', {}, 'Conditions, workflow and batch'),
    missing('The events this task waits for, its workflow\'s graph and its batch'));
  // A task that runs, or is about to, is shown again until it has moved on; a later one is left alone, so that
  // the reschedule field is not reset while someone types in it.
  const soon = task.state === 'running' || (task.state === 'pending' && new Date(task.runAt) - Date.now() < 5000);
  return { node: view, refreshSeconds: soon ? 2 : 0 };
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
