// The attempt history: search by kind, outcome, finish time and error text.
import { h, link, table, time, query, seconds } from './dom.js';
import { get, currentSession } from './api.js';

const OUTCOMES = ['succeeded', 'retried', 'failed', 'cancelled', 'snoozed', 'expired', 'node-absent', 'interrupted'];

export async function historyPage(params) {
  if (!currentSession().historyEnabled) {
    return { node: h('div', { id: 'history' }, h('h1', {}, 'History'),
      h('p', {}, 'The attempt history is off on this node. Turn it on with errand.history-enabled=true.')) };
  }
  const limit = Number(params.limit || 50);
  const offset = Number(params.offset || 0);
  const page = await get('history', { kind: params.kind, outcome: params.outcome, from: params.from,
    before: params.before, error: params.error, within: params.within, offset, limit });
  const local = value => value ? new Date(value).toISOString() : '';
  const form = h('form', { class: 'filters', id: 'history-filters' },
    h('label', {}, 'kind', h('input', { name: 'kind', value: params.kind || '', size: 20 })),
    h('label', {}, 'outcome', h('select', { name: 'outcome' }, h('option', { value: '' }, 'any'),
      OUTCOMES.map(o => h('option', { value: o, selected: params.outcome === o }, o)))),
    h('label', {}, 'finished from', h('input', { name: 'from', type: 'datetime-local', step: 1 })),
    h('label', {}, 'finished before', h('input', { name: 'before', type: 'datetime-local', step: 1 })),
    h('label', {}, 'error contains', h('input', { name: 'error', value: params.error || '', size: 20 })),
    h('button', { type: 'submit', class: 'primary' }, 'Search'));
  form.addEventListener('submit', event => {
    event.preventDefault();
    const v = Object.fromEntries(new FormData(form));
    location.hash = '#/history' + query({ kind: v.kind.trim(), outcome: v.outcome, from: local(v.from),
      before: local(v.before), error: v.error });
  });
  const base = { kind: params.kind, outcome: params.outcome, from: params.from, before: params.before, error: params.error,
    within: params.within };
  return { node: h('div', { id: 'history' },
    h('h1', {}, 'History'),
    form,
    params.from || params.before ? h('p', { class: 'muted' }, 'Finished from ', params.from || '…', ' before ', params.before || '…') : null,
    page.withinSeconds ? h('p', { class: 'muted', id: 'history-window' }, 'Only attempts that finished in the last ',
      seconds(page.withinSeconds), ' are searched (no index serves text in an error). ',
      link('Search the whole history', '#/history', { ...base, within: 'all', offset: '' }), '.') : null,
    h('p', { id: 'history-total' }, (page.totalExact ? '' : 'at least ') + page.total + ' attempts match'),
    table([
      ['task', a => link(String(a.taskId), '#/tasks/' + a.taskId), { num: true }],
      ['kind', a => a.kind],
      ['attempt', a => String(a.attempt), { num: true }],
      ['outcome', a => a.outcome],
      ['node', a => a.node || '—'],
      ['finished', a => time(a.finishedAt)],
      ['duration', a => a.durationMillis === null ? '—' : a.durationMillis + ' ms', { num: true }],
      ['error', a => a.error ? [a.error.type, a.error.message ? ': ' + a.error.message : ''] : '', { class: 'error' }],
    ], page.items, 'No attempt matches.'),
    h('div', { class: 'pager' },
      offset > 0 ? link('← previous', '#/history', { ...base, offset: Math.max(0, offset - limit) || '' }) : null,
      page.hasNext ? link('next →', '#/history', { ...base, offset: offset + limit }) : null)) };
}
