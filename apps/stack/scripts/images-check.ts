/**
 * The image smoke's driver (docker/smoke.sh starts the containers and Caddy in front of
 * them, then runs this with Caddy's root certificate in NODE_EXTRA_CA_CERTS and
 * CURL_CA_BUNDLE): one whole round trip through Caddy's https sites to the containers
 * (scripts/round-trip.ts, the presigned PUT included), the host SDK from the delivery
 * container, and the delivery API's change stream (GET /changes, Server-Sent Events):
 * opened before the release, it must carry the release's `change` event while it stays
 * open, which a buffering proxy would withhold.
 *
 * Settings (environment): AUTH_URL, MCP_URL, DELIVERY_URL (Caddy's sites), WORK_DIR.
 */
import { roundTrip } from './round-trip.js';

const setting = (name: string): string => {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`set ${name}`);
  return value;
};
const checks: string[] = [];
const pass = (what: string) => {
  checks.push(what);
  process.stdout.write(`images-check: ok  ${what}\n`);
};

/** Opens GET /changes?ids=<id>; the returned function waits for that id's change event. */
async function watchChanges(delivery: string, componentId: string): Promise<() => Promise<void>> {
  const stop = new AbortController();
  const stream = await fetch(`${delivery}/changes?ids=${componentId}`, { signal: stop.signal });
  if (stream.status !== 200 || !(stream.headers.get('content-type') ?? '').startsWith('text/event-stream') || stream.body === null) {
    throw new Error(`GET /changes answered ${stream.status} ${stream.headers.get('content-type')}: ${(await stream.text()).slice(0, 300)}`);
  }
  const reader = stream.body.pipeThrough(new TextDecoderStream()).getReader();
  let received = (await reader.read()).value ?? '';
  pass('GET /changes through Caddy: the event stream is open');
  // event: change, then id: <epoch>-<seq>, then the data naming the component.
  const event = new RegExp(`event: change\\n(?:id: [^\\n]*\\n)?data: \\{"id":"${componentId}"\\}`);
  const reading = (async () => {
    while (!event.test(received)) {
      const { value, done } = await reader.read();
      if (done) return;
      received += value;
    }
  })().catch(() => undefined);
  return async () => {
    const timeout = new Promise((resolve) => setTimeout(resolve, 10_000).unref());
    await Promise.race([reading, timeout]);
    stop.abort();
    if (!event.test(received)) throw new Error(`no change event for ${componentId} within 10 s; the stream carried: ${JSON.stringify(received.slice(0, 500))}`);
    pass('the release reached the open change stream through Caddy (not buffered)');
  };
}

try {
  const delivery = setting('DELIVERY_URL');
  const { componentId } = await roundTrip({
    urls: { auth: setting('AUTH_URL'), mcp: setting('MCP_URL'), delivery },
    workDir: setting('WORK_DIR'),
    label: 'images-check',
    pass,
    aroundPublish: (id) => watchChanges(delivery, id),
  });

  const sdk = await fetch(`${delivery}/host/v1.js`);
  const script = await sdk.text();
  if (sdk.status !== 200 || !/javascript/.test(sdk.headers.get('content-type') ?? '') || script.length < 1000) {
    throw new Error(`GET /host/v1.js answered ${sdk.status} ${sdk.headers.get('content-type')} (${script.length} bytes)`);
  }
  pass(`GET /host/v1.js from the delivery container (${script.length} bytes)`);

  const internal = await fetch(`${delivery}/ready`);
  await internal.arrayBuffer();
  if (internal.status !== 404) throw new Error(`GET /ready through Caddy answered ${internal.status}, expected 404 (kept inside)`);
  pass(`GET /ready through Caddy: 404, kept inside (component ${componentId} served above)`);
  process.stdout.write(`images-check: ${checks.length} passed, 0 failed\n`);
} catch (error) {
  process.stderr.write(`images-check: FAIL: ${error instanceof Error ? error.message : String(error)}\n`);
  process.stdout.write(`images-check: ${checks.length} passed, 1 failed\n`);
  process.exitCode = 1;
}
