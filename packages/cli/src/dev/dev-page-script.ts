/*
 * The dev page's script (served as /dev/page.js, a module that runs before the SDK's). It follows
 * the server's status stream, runs each candidate version in a probe frame before the server may
 * serve it, shows the component through <cp-component live> once a version is good, and gives it
 * the data box's JSON; the event log shows cp-load, cp-error and cp-action like the delivery API's
 * demo page. Static text: nothing is put into it, so there is nothing to escape.
 *
 * The probe is the SDK's own frame document (/host/frame/v1.<hash>.html) spoken to with its
 * documented protocol (packages/host src/frame/protocol.ts): `cp:hello` hands a port, `{ html, base,
 * d }` writes the component with the host's data, `{ x }` reports an uncaught error or unhandled
 * rejection of the component, `{ l }` its load; a `{ d }` sent after the load is answered `{ r }`
 * once the frame handled it, so every error of the load event's listeners has arrived by then.
 * Errors count from the writing of the document to that answer: "throws while it loads".
 */
export const DEV_PAGE_SCRIPT = `
const config = JSON.parse(document.getElementById('cp-dev-config').textContent);
const stage = document.getElementById('stage');
const statusLine = document.getElementById('status');
const problemsBox = document.getElementById('problems');
const probeShelf = document.getElementById('probe');
const log = document.getElementById('log');
const box = document.getElementById('data');
const dataStatus = document.getElementById('data-status');
// A probe that never loads (a resource that hangs) must not hold the loop forever.
const PROBE_LIMIT_MS = 10000;

let element = null;
let server = null;
let sent = JSON.parse(box.value);
let probed = 0;
let stopProbe = () => undefined;

const note = (kind, detail) => {
  const entry = document.createElement('li');
  let text;
  try { text = JSON.stringify(detail); } catch { text = String(detail); }
  entry.textContent = new Date().toLocaleTimeString() + '  ' + kind + '  ' + text;
  log.prepend(entry);
};

async function showComponent() {
  // A property set before the element is upgraded would hide the SDK's setter.
  await customElements.whenDefined('cp-component');
  element = document.createElement('cp-component');
  element.setAttribute('component-id', config.componentId);
  element.setAttribute('preview', 'true');
  element.setAttribute('live', '');
  element.setAttribute('analytics', 'off');
  element.innerHTML = '<p slot="loading">Loading…</p><p slot="error" class="error">The component could not be shown: the event log says why.</p>';
  for (const type of ['cp-load', 'cp-error', 'cp-action']) element.addEventListener(type, (event) => note(type, event.detail));
  element.data = sent;
  stage.append(element);
}

const describe = (x) =>
  (x.n === 'rejection' ? 'A promise rejects unhandled' : 'A script throws') + ' while the component loads: ' +
  (x.class ? x.class + ': ' : '') + (x.message || '(no message)');

function probe(candidate) {
  stopProbe();
  probed = candidate.revision;
  const problems = [];
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.title = 'probe';
  frame.src = config.framePath;
  let loaded = false;
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    stopProbe();
    fetch('/dev/verdict', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ revision: candidate.revision, problems: problems.slice(0, 20) }),
    }).catch(() => undefined);
  };
  const onHello = (event) => {
    if (event.source !== frame.contentWindow || event.origin !== 'null' || event.data !== 'cp:hello' || !event.ports[0]) return;
    removeEventListener('message', onHello);
    const port = event.ports[0];
    port.onmessage = ({ data: message }) => {
      if (!message || typeof message !== 'object') return;
      if (message.x) problems.push({ kind: 'throws-at-load', message: describe(message.x).slice(0, 1000) });
      if (message.l && !loaded) {
        loaded = true;
        port.postMessage({ d: sent });
      } else if (message.r && loaded) finish();
    };
    port.postMessage({ html: candidate.html, base: location.href, d: sent });
  };
  addEventListener('message', onHello);
  const limit = setTimeout(finish, PROBE_LIMIT_MS);
  stopProbe = () => {
    clearTimeout(limit);
    removeEventListener('message', onHello);
    frame.remove();
    stopProbe = () => undefined;
  };
  probeShelf.append(frame);
}

function render(status) {
  // Another run of the server (cpc dev restarted) serves another component id: start over.
  if (server !== null && status.server !== server) return location.reload();
  server = status.server;
  if (status.good && !element) void showComponent();
  const list = document.createElement('ul');
  for (const problem of status.problems) {
    const item = document.createElement('li');
    item.textContent = problem.message;
    item.dataset.kind = problem.kind;
    list.append(item);
  }
  const heading = document.createElement('p');
  heading.textContent = status.good
    ? 'The file breaks the component contract: still showing ' + status.good.name + ', the last good version.'
    : 'The file breaks the component contract: nothing to show until it is fixed.';
  problemsBox.replaceChildren(heading, list);
  problemsBox.hidden = status.problems.length === 0;
  statusLine.textContent = status.candidate
    ? 'Running the new version…'
    : status.good ? 'Showing ' + status.good.name + (status.problems.length ? ' (the last good version).' : '.') : 'Nothing good to show yet.';
  if (status.candidate && status.candidate.revision > probed) probe(status.candidate);
}

new EventSource('/dev/status').addEventListener('status', (event) => render(JSON.parse(event.data)));

document.getElementById('data-form').addEventListener('submit', (event) => {
  event.preventDefault();
  let data;
  try {
    data = JSON.parse(box.value);
  } catch (error) {
    dataStatus.textContent = 'Not sent: the data is not JSON (' + error.message + ').';
    box.setAttribute('aria-invalid', 'true');
    return;
  }
  box.removeAttribute('aria-invalid');
  sent = data;
  if (element) element.data = data;
  dataStatus.textContent = 'Sent at ' + new Date().toLocaleTimeString() + '.';
});
`;
