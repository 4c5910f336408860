import { request } from 'node:http';
import type { Recorded } from '../delivery/bare-server.js';

/** Headers Node writes by itself on every keep-alive response (the bare server gets them from Node too). */
const PER_CONNECTION = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

export interface Answer {
  readonly status: number;
  readonly text: string;
  /** The response as sent (header names, order and values; body bytes), for the baseline to send back. */
  readonly recorded: Recorded;
}

/** POSTs a form and keeps the answer exactly as sent. */
export function postForm(url: string, body: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const headers: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          if (!PER_CONNECTION.has(res.rawHeaders[i]!.toLowerCase())) headers.push(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
        }
        const bytes = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, text: bytes.toString('utf8'), recorded: { headers, body: bytes.toString('base64') } });
      });
    });
    req.on('error', reject).end(body);
  });
}
