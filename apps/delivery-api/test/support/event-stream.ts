import { request, type IncomingMessage } from 'node:http';

/** A dispatched event, as a browser's EventSource would dispatch it. */
export interface StreamEvent {
  readonly type: string;
  readonly data: string;
  /** The stream's last event id when the event was dispatched (`MessageEvent.lastEventId`). */
  readonly lastEventId: string;
}

export interface EventStreamClient {
  readonly status: number;
  header(name: string): string | undefined;
  /** Non-200 answers: the whole body, read before `openStream` resolves. */
  readonly body: string;
  readonly events: StreamEvent[];
  readonly comments: string[];
  /** As the browser keeps it: set by every `id:` field, also in blocks without data. */
  readonly lastEventId: string;
  readonly retry: number | null;
  /** Settles when the server ends the response or the connection closes. */
  readonly ended: Promise<void>;
  readonly isEnded: boolean;
  /** Resolves with the first event (already received or to come) that matches; rejects after `timeoutMs`. */
  next(match: (event: StreamEvent) => boolean, timeoutMs?: number): Promise<StreamEvent>;
  /** Resolves once `condition()` holds, checked on every chunk received; rejects after `timeoutMs`. */
  until(condition: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  close(): void;
}

/**
 * A client of `text/event-stream` over real HTTP that parses as the WHATWG HTML
 * algorithm does ("Server-sent events", interpreting an event stream) and keeps
 * what EventSource keeps: the last event id (which eventsource-parser leaves to its
 * caller, and which blocks without data also set) and the reconnection time.
 * It does not reconnect: tests reconnect explicitly, with the header a browser sends.
 */
export function openStream(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<EventStreamClient> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, headers: { Accept: 'text/event-stream', ...headers }, agent: false });
    req.on('error', reject);
    req.on('response', (res: IncomingMessage) => {
      const client = new Client(res, () => req.destroy());
      if (res.statusCode === 200) resolve(client);
      else void client.ended.then(() => resolve(client));
    });
    req.end();
  });
}

class Client implements EventStreamClient {
  readonly events: StreamEvent[] = [];
  readonly comments: string[] = [];
  lastEventId = '';
  retry: number | null = null;
  body = '';
  isEnded = false;
  readonly ended: Promise<void>;
  private readonly watchers = new Set<() => void>();
  private pending = '';
  private type = '';
  private data: string[] = [];
  private idBuffer = '';

  constructor(
    private readonly res: IncomingMessage,
    private readonly abort: () => void,
  ) {
    res.setEncoding('utf8');
    this.ended = new Promise((done) => {
      const finish = () => {
        this.isEnded = true;
        this.notify();
        done();
      };
      res.on('end', finish);
      res.on('close', finish);
      res.on('error', finish);
    });
    res.on('data', (chunk: string) => {
      if (res.statusCode === 200) this.feed(chunk);
      else this.body += chunk;
      this.notify();
    });
  }

  get status(): number {
    return this.res.statusCode ?? 0;
  }

  header(name: string): string | undefined {
    const value = this.res.headers[name.toLowerCase()];
    return Array.isArray(value) ? value.join(', ') : value;
  }

  next(match: (event: StreamEvent) => boolean, timeoutMs = 5000): Promise<StreamEvent> {
    let found: StreamEvent | undefined;
    return this.until(() => (found = this.events.find(match)) !== undefined, 'a matching event', timeoutMs).then(() => found!);
  }

  until(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
    if (condition()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.watchers.delete(check);
        reject(new Error(`no ${what} within ${timeoutMs} ms; received ${JSON.stringify(this.events)}, comments ${JSON.stringify(this.comments)}${this.isEnded ? ', stream ended' : ''}`));
      }, timeoutMs);
      const check = () => {
        if (!condition()) return;
        clearTimeout(timer);
        this.watchers.delete(check);
        resolve();
      };
      this.watchers.add(check);
    });
  }

  close(): void {
    this.abort();
  }

  private notify(): void {
    for (const check of [...this.watchers]) check();
  }

  private feed(chunk: string): void {
    const lines = (this.pending + chunk).split(/\r\n|\r|\n/);
    this.pending = lines.pop() ?? '';
    for (const line of lines) this.line(line);
  }

  private line(line: string): void {
    if (line === '') {
      this.lastEventId = this.idBuffer;
      if (this.data.length > 0) this.events.push({ type: this.type || 'message', data: this.data.join('\n'), lastEventId: this.lastEventId });
      this.type = '';
      this.data = [];
      return;
    }
    if (line.startsWith(':')) {
      this.comments.push(line.slice(1).trim());
      return;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') this.type = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'id' && !value.includes('\0')) this.idBuffer = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.retry = Number(value);
  }
}
