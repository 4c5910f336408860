import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import type { AppConfig } from '../config.js';
import { MAX_BODY_BYTES, MAX_EVENTS, UsageBatch } from './event-schema.js';
import { problemResponse } from './shared-responses.js';

const retryAfter = z.object({ 'Retry-After': z.string().meta({ description: 'Seconds.', example: '5' }) });

/** What host pages report: usage events (docs/delivery-api.md "Usage events"). */
export const usagePaths = (config: AppConfig): ZodOpenApiPathsObject => ({
  '/v1/events': {
    post: {
      operationId: 'postEvents',
      summary: 'Report usage events (the host SDK sends them)',
      description: [
        `A batch of at most ${MAX_EVENTS} events in at most ${MAX_BODY_BYTES} bytes, as \`text/plain;charset=UTF-8\` (what \`navigator.sendBeacon\` and a keepalive \`fetch\` send without a CORS preflight) or \`application/json\`. Wire format version 1 is strict: a field it does not define is refused (400, naming it).`,
        'The server stamps each event with its own clock and keeps only a browser family derived from User-Agent; it stores no address and no User-Agent.',
        'Events about an unknown component, an environment its organization does not have, or a variant of another component are answered 204 like the others and not stored (counted in the service\'s metrics).',
        `Budgets, counted in events: ${config.usage.eventsPerNetwork} per client network and ${config.usage.eventsPerComponent} per component every ${config.usage.limitWindowSeconds} s; and ${config.usage.lookupsPerNetwork} ids per client network the instance has not cached yet; past one, 429 with \`Retry-After\`.`,
        'Accepted events are written within about a second; a database outage keeps them in memory up to a bound (docs/delivery-api.md, "what can be lost").',
      ].join('\n\n'),
      requestBody: {
        required: true,
        content: { 'text/plain': { schema: UsageBatch }, 'application/json': { schema: UsageBatch } },
      },
      responses: {
        '204': { description: 'Accepted (events naming what does not exist are dropped, not refused).' },
        '400': problemResponse('Not JSON, not a batch, another version (the detail says which are accepted), or a field that breaks the schema, named by its path (`events[3].ms: …`).'),
        '405': problemResponse('Only POST and OPTIONS; `Allow` lists them.'),
        '413': problemResponse(`A body over ${MAX_BODY_BYTES} bytes (the rest is not read; the connection closes), or more than ${MAX_EVENTS} events.`),
        '415': problemResponse('A Content-Type other than text/plain or application/json (UTF-8).'),
        '429': problemResponse('The client network\'s or the component\'s event budget is spent, or the network sent too many ids unknown to the instance.', retryAfter),
        '503': problemResponse('The ids cannot be checked: the database does not answer.', retryAfter),
      },
    },
  },
});
