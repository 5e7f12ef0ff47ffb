// Batches and workflows: the list of batches, a workflow's graph drawn as SVG, and a task's links.
// Every SVG element is built with createElementNS and every text with a text node: nothing is parsed from data.
import { h, link, table, time, fields, yesNo, query, stateBadge } from './dom.js';
import { get, send } from './api.js';
import { actionButton } from './ui.js';

const SVG = 'http://www.w3.org/2000/svg';

/** An SVG element with attributes (no handlers) and children (nodes, or anything else as text). */
function svg(tag, attributes, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value !== null && value !== undefined) element.setAttribute(name, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

export async function batchesPage(params) {
  const data = await get('batches', { finished: params.finished, before: params.before, limit: params.limit });
  const select = h('select', { name: 'finished' },
    [['', 'any'], ['false', 'not finished'], ['true', 'finished']].map(([value, label]) =>
      h('option', { value, selected: (params.finished || '') === value }, label)));
  select.addEventListener('change', () => { location.hash = '#/batches' + query({ finished: select.value }); });
  const input = h('input', { name: 'batch', type: 'number', min: 1, placeholder: 'batch id' });
  const form = h('form', { class: 'filters', id: 'batch-lookup' }, h('label', {}, 'state', select),
    h('label', {}, 'batch id', input), h('button', { type: 'submit', class: 'primary' }, 'Open'));
  form.addEventListener('submit', event => {
    event.preventDefault();
    if (/^\d+$/.test(input.value)) location.hash = '#/batches/' + input.value;
  });
  return { node: h('div', { id: 'batches' },
    h('h1', {}, 'Batches'), form,
    h('p', { class: 'muted' }, 'Newest first.'),
    table([
      ['batch', b => link('batch ' + b.batchId, '#/batches/' + b.batchId)],
      ['created', b => time(b.createdAt)],
      ['progress', b => h('progress', { max: b.total || 1, value: b.succeeded + b.failed + b.cancelled })],
      ['total', b => String(b.total), { num: true }],
      ['succeeded', b => String(b.succeeded), { num: true }],
      ['failed', b => String(b.failed), { num: true }],
      ['cancelled', b => String(b.cancelled), { num: true }],
      ['not finished', b => String(b.pending), { num: true }],
      ['finished', b => yesNo(b.finished)],
      ['callbacks', b => callbackList(b.callbacks)],
    ], data.items, 'No batch.'),
    data.nextBefore ? h('p', {}, link('Older batches', '#/batches',
      { finished: params.finished, before: data.nextBefore, limit: params.limit })) : null) };
}

/** Each callback with whether it fired, and its task when it did. */
export function callbackList(callbacks) {
  if (!callbacks || callbacks.length === 0) return h('span', { class: 'muted' }, 'none');
  return callbacks.map((c, i) => [i ? ', ' : '', c.event, ': ',
    c.fired ? link('fired, task ' + c.taskId, '#/tasks/' + c.taskId) : h('span', { class: 'muted' }, 'not fired')]);
}

const BOX_WIDTH = 170;
const BOX_HEIGHT = 46;
const COLUMN_GAP = 60;
const ROW_GAP = 22;

/** Each step's column: the length of the longest chain of edges that leads to it. */
function levels(steps, edges) {
  const level = new Map(steps.map(s => [s.taskId, 0]));
  // As many passes as steps: a longest path has at most that many edges (the graph has no cycle).
  for (let pass = 0; pass < steps.length; pass++) {
    let moved = false;
    for (const edge of edges) {
      const next = (level.get(edge.from) ?? 0) + 1;
      if (level.has(edge.to) && level.get(edge.to) < next) {
        level.set(edge.to, next);
        moved = true;
      }
    }
    if (!moved) break;
  }
  return level;
}

function shorten(text, max) {
  return text.length > max ? text.slice(0, max - 1) + '…' : text;
}

/** The workflow's graph as SVG: a box per step (its name and state), an arrow per edge. */
export function workflowGraph(graph, current) {
  const level = levels(graph.steps, graph.edges);
  const columns = new Map();
  const place = new Map();
  for (const step of graph.steps) {
    const column = level.get(step.taskId);
    const row = columns.get(column) || 0;
    columns.set(column, row + 1);
    place.set(step.taskId, { x: 10 + column * (BOX_WIDTH + COLUMN_GAP), y: 10 + row * (BOX_HEIGHT + ROW_GAP) });
  }
  const width = 20 + Math.max(1, columns.size) * (BOX_WIDTH + COLUMN_GAP) - COLUMN_GAP;
  const height = 20 + Math.max(1, ...columns.values()) * (BOX_HEIGHT + ROW_GAP) - ROW_GAP;
  const arrows = graph.edges.filter(e => place.has(e.from) && place.has(e.to)).map(e => {
    const from = place.get(e.from);
    const to = place.get(e.to);
    const x1 = from.x + BOX_WIDTH;
    const y1 = from.y + BOX_HEIGHT / 2;
    const x2 = to.x;
    const y2 = to.y + BOX_HEIGHT / 2;
    const bend = (x2 - x1) / 2;
    return svg('path', { class: 'edge', 'data-from': e.from, 'data-to': e.to,
      d: `M ${x1} ${y1} C ${x1 + bend} ${y1}, ${x2 - bend} ${y2}, ${x2} ${y2}`, 'marker-end': 'url(#arrow)' });
  });
  const boxes = graph.steps.map(step => {
    const at = place.get(step.taskId);
    const state = step.state || 'gone';
    const group = svg('g', { class: 'step step-' + state + (step.taskId === current ? ' current' : ''),
      'data-step': step.step, 'data-task': step.taskId, transform: `translate(${at.x} ${at.y})`, tabindex: 0,
      role: 'link' },
      svg('title', {}, step.step + ' (task ' + step.taskId + ', ' + state + ')'),
      svg('rect', { width: BOX_WIDTH, height: BOX_HEIGHT, rx: 6 }),
      svg('text', { x: 10, y: 19, class: 'name' }, shorten(step.step, 22)),
      svg('text', { x: 10, y: 36, class: 'state' }, state + ' · task ' + step.taskId));
    const open = () => { location.hash = '#/tasks/' + Number(step.taskId); };
    group.addEventListener('click', open);
    group.addEventListener('keydown', event => { if (event.key === 'Enter') open(); });
    return group;
  });
  return svg('svg', { class: 'workflow-graph', id: 'workflow-graph', width, height, viewBox: `0 0 ${width} ${height}`,
    role: 'img', 'aria-label': 'workflow ' + graph.workflowId },
    svg('defs', {}, svg('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 8,
      markerHeight: 8, orient: 'auto-start-reverse' }, svg('path', { d: 'M 0 0 L 10 5 L 0 10 z' }))),
    arrows, boxes);
}

export async function workflowPage(id) {
  const graph = await get('workflows/' + Number(id));
  const names = new Map(graph.steps.map(s => [s.taskId, s.step]));
  const unfinished = graph.steps.some(s => ['pending', 'waiting', 'running'].includes(s.state));
  return { node: h('div', { id: 'workflow' },
    h('h1', {}, 'Workflow ' + graph.workflowId),
    h('div', { class: 'actions' }, unfinished ? actionButton('Cancel workflow',
      () => send('workflows/' + Number(id) + '/cancel'),
      { danger: true, name: 'cancel-workflow',
        confirm: 'Cancel the unfinished steps of workflow ' + graph.workflowId + ' (running ones are asked to stop)?',
        done: r => r.cancelledSteps + ' steps cancelled, ' + r.askedToStop + ' asked to stop' }) : null),
    h('div', { class: 'graph' }, workflowGraph(graph, Number(id))),
    h('h2', {}, 'Steps'),
    table([
      ['step', s => s.step],
      ['task', s => link('task ' + s.taskId, '#/tasks/' + s.taskId)],
      ['state', s => s.state ? stateBadge(s.state) : h('span', { class: 'muted' }, 'gone (pruned or deleted)')],
      ['runs after', s => graph.edges.filter(e => e.to === s.taskId).map(e => names.get(e.from)).join(', ') || '—'],
    ], graph.steps)), refreshSeconds: unfinished ? 3 : 0 };
}

/** Adds what a task is linked to (batch, workflow, dependencies, open conditions) below its page. */
export async function withLinks(content, id) {
  let links;
  try {
    links = await get('tasks/' + Number(id) + '/links');
  } catch (error) {
    return content;
  }
  const tasks = ids => ids.length ? ids.map((t, i) => [i ? ', ' : '', link('task ' + t, '#/tasks/' + t)])
    : h('span', { class: 'muted' }, 'none');
  content.node.append(h('section', { id: 'task-links' },
    h('h2', {}, 'Links'),
    fields([
      ['batch', links.batchId ? link('batch ' + links.batchId, '#/batches/' + links.batchId) : '—'],
      ['workflow', links.workflowId
        ? [link('workflow ' + links.workflowId, '#/workflows/' + id), ', step ', h('code', {}, links.step)] : '—'],
      ['runs after', tasks(links.dependsOn)],
      ['runs before', tasks(links.dependents)],
      ['waits for', links.openConditions.length ? links.openConditions.map((c, i) => [i ? ', ' : '',
        h('code', {}, c.event)]) : h('span', { class: 'muted' }, 'nothing')],
    ])));
  return content;
}
