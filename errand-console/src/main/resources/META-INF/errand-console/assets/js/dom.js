// Every element of the console is built here, through DOM APIs: text from the server (payloads, errors, logs,
// names) only ever becomes a text node or an attribute value set with setAttribute, never HTML.

const STATES = ['pending', 'waiting', 'running', 'succeeded', 'failed', 'cancelled'];

/** Creates an element; attribute names come from this code only, children that are not nodes become text. */
export function h(tag, attributes, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith('on')) {
      element.addEventListener(name.slice(2), value);
    } else if (name === 'href') {
      element.setAttribute('href', consoleLink(value));
    } else {
      element.setAttribute(name, value === true ? '' : String(value));
    }
  }
  append(element, children);
  return element;
}

/** Appends children: nodes as they are, anything else as text. */
export function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** Replaces an element's content. */
export function replace(element, ...children) {
  element.replaceChildren();
  return append(element, children);
}

/** Only links inside the console: a hash route. */
function consoleLink(value) {
  const link = String(value);
  if (!link.startsWith('#/')) throw new Error('The console links only to its own pages, not ' + link);
  return link;
}

/** A link to a console page, its route built from encoded parts. */
export function link(text, route, params) {
  return h('a', { href: route + query(params) }, text);
}

/** A query string of the non-empty parameters, or ''. */
export function query(params) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params || {})) {
    if (value !== null && value !== undefined && value !== '') search.set(name, value);
  }
  const text = search.toString();
  return text ? '?' + text : '';
}

export function stateBadge(state) {
  const known = STATES.includes(state) ? state : 'unknown';
  return h('span', { class: 'state state-' + known }, state);
}

export function yesNo(value) {
  return h('span', { class: value ? 'yes' : 'no' }, value ? 'yes' : 'no');
}

/** A time as the browser's local time, with the exact instant as its tooltip. */
export function time(instant) {
  if (!instant) return h('span', { class: 'muted' }, '—');
  const date = new Date(instant);
  return h('time', { datetime: instant, title: instant }, isNaN(date) ? instant : date.toLocaleString());
}

export function seconds(value) {
  if (value === null || value === undefined) return '—';
  if (value < 60) return value.toFixed(value < 10 ? 1 : 0) + ' s';
  if (value < 3600) return (value / 60).toFixed(1) + ' min';
  return (value / 3600).toFixed(1) + ' h';
}

/**
 * A table: columns are [header, cell(row), options]; cell returns text or nodes.
 * options.num right-aligns the column.
 */
export function table(columns, rows, empty) {
  if (!rows || rows.length === 0) return h('p', { class: 'muted' }, empty || 'None.');
  return h('table', {},
    h('thead', {}, h('tr', {}, columns.map(([title, , options]) =>
      h('th', { class: options && options.num ? 'num' : null }, title)))),
    h('tbody', {}, rows.map(row => h('tr', {}, columns.map(([, cell, options]) =>
      h('td', { class: options && options.num ? 'num' : (options && options.class) || null }, cell(row)))))));
}

/** A definition list of [label, value] pairs. */
export function fields(pairs) {
  return h('dl', { class: 'fields' }, pairs.map(([label, value]) => [h('dt', {}, label), h('dd', {}, value)]));
}

export function card(label, value, extraClass) {
  return h('div', { class: 'card ' + (extraClass || '') }, h('div', { class: 'n' }, value), h('div', { class: 'l' }, label));
}

/** A JSON value pretty-printed, as text. */
export function pretty(value) {
  if (value === null || value === undefined) return h('p', { class: 'muted' }, 'None.');
  return h('pre', {}, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
}
