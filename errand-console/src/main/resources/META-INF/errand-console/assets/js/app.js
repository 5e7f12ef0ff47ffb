// The console's shell: the session, the hash router and the navigation. Pages render into <main>.
import { h, replace } from './dom.js';
import { loadSession, ApiError } from './api.js';
import { clearFlash, onAction, flash, takeKeepFlash } from './ui.js';
import { overviewPage } from './overview.js';
import { tasksPage, taskPage } from './tasks.js';
import { schedulesPage, batchPage, processesPage, processPage, eventsPage } from './flows.js';
import { batchesPage, workflowPage, withLinks } from './graphs.js';
import { clusterPage } from './cluster.js';
import { historyPage } from './history.js';

const ROUTES = [
  [/^\/?$/, 'overview', () => overviewPage],
  [/^\/tasks$/, 'tasks', () => tasksPage],
  [/^\/tasks\/(\d+)$/, 'tasks', match => async params => withLinks(await taskPage(match[1], params), match[1])],
  [/^\/schedules$/, 'schedules', () => schedulesPage],
  [/^\/batches$/, 'batches', () => batchesPage],
  [/^\/batches\/(\d+)$/, 'batches', match => params => batchPage(match[1], params)],
  [/^\/workflows\/(\d+)$/, 'batches', match => () => workflowPage(match[1])],
  [/^\/processes$/, 'processes', () => processesPage],
  [/^\/process$/, 'processes', () => processPage],
  [/^\/events$/, 'events', () => eventsPage],
  [/^\/cluster$/, 'cluster', () => clusterPage],
  [/^\/history$/, 'history', () => historyPage],
];

let stopCurrent = () => {};
let generation = 0;

async function route(keepFlash) {
  stopCurrent();
  stopCurrent = () => {};
  if (!keepFlash) clearFlash();
  const hash = location.hash.replace(/^#/, '') || '/';
  const [path, search] = hash.split('?');
  const params = Object.fromEntries(new URLSearchParams(search || ''));
  const main = document.getElementById('main');
  const found = ROUTES.map(([pattern, name, page]) => [path.match(pattern), name, page]).find(([match]) => match);
  document.querySelectorAll('header nav a').forEach(a =>
    a.classList.toggle('current', !!found && a.dataset.page === found[1]));
  if (!found) {
    replace(main, h('h1', {}, 'Not found'), h('p', {}, 'The console has no page ' + path + '.'));
    return;
  }
  const render = found[2](found[0]);
  const mine = ++generation;
  let timer = null;
  // Each drawing of the page says whether to draw it again, and when: a page that refreshes itself keeps doing
  // so, and one whose state changed after an action (a retried task) starts to.
  const cycle = async () => {
    clearTimeout(timer);
    try {
      const content = await render(params);
      if (mine !== generation) return;
      replace(main, content.node);
      if (content.refreshSeconds) timer = setTimeout(tick, content.refreshSeconds * 1000);
    } catch (error) {
      if (mine === generation) showError(error);
    }
  };
  // A page's own refresh waits while it asks to confirm an action (its "Yes" not yet clicked), so that the question
  // stays until it is answered or withdrawn; an answer draws the page again itself.
  const tick = () => {
    if (main.querySelector('button[data-confirm]:not(:disabled)')) {
      timer = setTimeout(tick, 1000);
    } else {
      cycle();
    }
  };
  stopCurrent = () => clearTimeout(timer);
  onAction(cycle);
  await cycle();
}

function showError(error) {
  const main = document.getElementById('main');
  if (error instanceof ApiError && error.status === 401) {
    replace(main, h('h1', {}, 'Sign in'), h('p', {}, 'Sign in to the application, then reload this page.'));
  } else {
    flash(error.message, true);
  }
}

async function start() {
  try {
    const session = await loadSession();
    replace(document.getElementById('who'),
      (session.user ? session.user : 'no sign-in') + ' · ' + session.nodeId + ' on ' + session.dialect
      + (session.canAct ? '' : ' · view only'));
  } catch (error) {
    showError(error);
    return;
  }
  window.addEventListener('hashchange', () => route(takeKeepFlash()));
  await route(false);
}

start();
