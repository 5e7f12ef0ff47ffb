// Shared pieces of the pages: the flash message, action buttons and the re-render after an action.
import { h, replace } from './dom.js';
import { currentSession } from './api.js';

let rerender = () => {};
let keepFlashOnce = false;

/** Sets what an action re-renders once it has succeeded: the current page. */
export function onAction(render) {
  rerender = render;
}

/** Draws the current page again, keeping the flash: after work that ended outside an action button. */
export async function refresh() {
  await rerender();
}

/** Shows a message (text only) above the page. */
export function flash(message, isError) {
  const element = document.getElementById('flash');
  replace(element, message);
  element.className = 'flash' + (isError ? ' error' : '');
  element.hidden = false;
}

/** Goes to another page keeping the flash, so that what an action did is still said there (a delete's). */
export function navigateKeepingFlash(hash) {
  // The same hash fires no hashchange, so there is no page change to keep the flash for.
  keepFlashOnce = location.hash !== hash;
  location.hash = hash;
}

/** Whether the page change under way keeps the flash; asked once by the router per change. */
export function takeKeepFlash() {
  const keep = keepFlashOnce;
  keepFlashOnce = false;
  return keep;
}

export function clearFlash() {
  const element = document.getElementById('flash');
  element.hidden = true;
  replace(element);
}

export function canAct() {
  const session = currentSession();
  return !!(session && session.canAct);
}

/**
 * A button that runs an action, reports its result and re-renders the page. Without the right to act it is
 * left out, so that a viewer sees no control it could not use.
 */
export function actionButton(label, action, options) {
  if (!canAct()) return null;
  const opts = options || {};
  const button = h('button', { type: 'button', class: opts.danger ? 'danger' : opts.primary ? 'primary' : null,
    'data-action': opts.name || label }, label);
  button.addEventListener('click', async () => {
    if (opts.confirm) {
      const confirm = h('span', { class: 'inline' }, opts.confirm + ' ',
        h('button', { type: 'button', class: 'danger', 'data-confirm': 'yes', onclick: () => run(confirm) }, 'Yes'),
        h('button', { type: 'button', onclick: () => confirm.replaceWith(button) }, 'No'));
      button.replaceWith(confirm);
    } else {
      await run(button);
    }
  });
  async function run(element) {
    element.querySelectorAll && element.querySelectorAll('button').forEach(b => { b.disabled = true; });
    if (element.tagName === 'BUTTON') element.disabled = true;
    try {
      const result = await action();
      flash(opts.done ? opts.done(result) : label + ': done');
      await rerender();
    } catch (error) {
      flash(label + ' failed: ' + error.message, true);
      element.querySelectorAll && element.querySelectorAll('button').forEach(b => { b.disabled = false; });
      if (element.tagName === 'BUTTON') element.disabled = false;
    }
  }
  return button;
}
