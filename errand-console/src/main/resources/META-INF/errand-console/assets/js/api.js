// The console's JSON API, read and called with the session's CSRF token. See docs/CONSOLE.md.

const BASE = new URL('../../api/', import.meta.url);
let session = null;

/** An API answer that was not 2xx: its status and the message the server gave. */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** Reads who the user is, what it may do and the CSRF token. */
export async function loadSession() {
  session = await get('session');
  return session;
}

export function currentSession() {
  return session;
}

export async function get(path, params) {
  const url = new URL(path, BASE);
  for (const [name, value] of Object.entries(params || {})) {
    if (value !== null && value !== undefined && value !== '') url.searchParams.set(name, value);
  }
  return answer(await fetch(url, { headers: { Accept: 'application/json', 'X-Errand-Console': '1' } }));
}

/** Sends an action: POST (or DELETE) with a JSON body and the CSRF header. */
export async function send(path, body, method) {
  const headers = { Accept: 'application/json', 'Content-Type': 'application/json', 'X-Errand-Console': '1' };
  if (session && session.csrf) headers[session.csrf.headerName] = session.csrf.token;
  const response = await fetch(new URL(path, BASE), {
    method: method || 'POST',
    headers,
    body: JSON.stringify(body || {}),
  });
  return answer(response);
}

async function answer(response) {
  let body = null;
  try {
    body = await response.json();
  } catch (e) {
    body = null;
  }
  if (!response.ok) {
    throw new ApiError(response.status, (body && body.message) || response.status + ' ' + response.statusText);
  }
  return body;
}

/** Encodes one path segment. */
export function segment(value) {
  return encodeURIComponent(String(value));
}
