import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createMetrics, expressMetrics, listen, timeResponse } from '../src/index.js';

const sample = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

test('request count and latency per route pattern and status, scraped in the Prometheus format', async () => {
  const metrics = createMetrics({ service: 'test' });
  const consume = metrics.http.route('/consume', 'GET');
  const server = createServer((req, res) => {
    if (req.url === '/metrics') return metrics.handler(req, res);
    timeResponse(consume, res);
    res.statusCode = req.url?.includes('missing') ? 404 : 200;
    res.end('x');
  });
  const port = await listen(server, 0, '127.0.0.1');
  const base = `http://127.0.0.1:${port}`;
  for (const path of ['/consume?id=a', '/consume?id=b', '/consume?id=missing']) await (await fetch(base + path)).text();

  const res = await fetch(`${base}/metrics`);
  expect(res.headers.get('content-type')).toContain('text/plain');
  const text = await res.text();
  const labels = 'route="/consume",method="GET",status="200",service="test"';
  expect(text).toContain('# TYPE http_requests_total counter');
  expect(text).toContain('# TYPE http_request_duration_seconds histogram');
  expect(sample(text, `http_requests_total{${labels}}`)).toBe(2);
  expect(sample(text, `http_requests_total{route="/consume",method="GET",status="404",service="test"}`)).toBe(1);
  expect(sample(text, `http_request_duration_seconds_count{${labels}}`)).toBe(2);
  expect(text).toMatch(/http_request_duration_seconds_bucket\{route="\/consume",method="GET",status="200",le="\+Inf",service="test"\} 2/);
  expect(text).not.toContain('id=a');
  expect(text).toContain('process_cpu_user_seconds_total');
  await new Promise((resolve) => server.close(resolve));
});

test('each instance has its own registry; app counters live in it', async () => {
  const a = createMetrics({ service: 'a', processMetrics: false });
  const b = createMetrics({ service: 'b', processMetrics: false });
  const hits = a.counter('cache_hits_total', 'Hits.', ['cache']);
  b.counter('cache_hits_total', 'Hits.', ['cache']); // same name in another registry: no clash
  hits.inc({ cache: 'response' });
  const lookups = a.tally('lookups_total', 'Lookups.', 'result', ['hit', 'miss']);
  lookups.inc('hit');
  lookups.inc('hit');
  a.http.observe('/x', 'BREW', 200, 0.002);
  const text = await a.registry.metrics();
  expect(text).toContain('cache_hits_total{cache="response",service="a"} 1');
  expect(text).toContain('# TYPE lookups_total counter');
  expect(text).toContain('lookups_total{result="hit",service="a"} 2');
  expect(text).toContain('lookups_total{result="miss",service="a"} 0');
  expect(text).toContain('http_requests_total{route="/x",method="OTHER",status="200",service="a"} 1');
  expect(text).toMatch(/http_request_duration_seconds_bucket\{route="\/x",method="OTHER",status="200",le="0.0025",service="a"\} 1/);
  expect(text).toMatch(/http_request_duration_seconds_bucket\{route="\/x",method="OTHER",status="200",le="0.001",service="a"\} 0/);
  expect(await b.registry.metrics()).not.toContain('route="/x"');
});

test('expressMetrics labels with the matched route pattern, or the fallback', async () => {
  const metrics = createMetrics({ service: 't', processMetrics: false });
  const middleware = expressMetrics(metrics, () => '(other)');
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    middleware(req, res, () => {
      if (req.url?.startsWith('/items/')) Object.assign(req, { route: { path: '/items/:id' }, baseUrl: '' });
      res.end();
    });
  });
  const port = await listen(server, 0, '127.0.0.1');
  await fetch(`http://127.0.0.1:${port}/items/123`);
  await fetch(`http://127.0.0.1:${port}/elsewhere/123`);
  const text = await metrics.registry.metrics();
  expect(text).toContain('http_requests_total{route="/items/:id",method="GET",status="200",service="t"} 1');
  expect(text).toContain('http_requests_total{route="(other)",method="GET",status="200",service="t"} 1');
  // No label holds the raw path (a duration sum may hold those digits: look at labels only).
  expect(text).not.toMatch(/="[^"]*123[^"]*"/);
  await new Promise((resolve) => server.close(resolve));
});
