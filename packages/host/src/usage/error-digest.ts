/*
 * What an error event carries of an error: its class, its message, and a hash of its
 * stack without line and column numbers (one bug in one build, one hash). Shared by the
 * SDK and the frame document. Never the value thrown when it is not an Error: that may be data.
 */

export interface ErrorDigest {
  readonly class: string;
  readonly message: string;
  /** FNV-1a 32 (over UTF-16 code units) of the normalized stack, 8 lowercase hex characters. */
  readonly stack: string;
}

/** The hash of an empty stack: errors that have none (the SDK's own problems). */
export const NO_STACK = '811c9dc5';

/** A stack frame's line ends in `:line:column` (V8 `at f (file:1:2)`, Firefox and Safari `f@file:1:2`). */
const POSITION = /:\d+:\d+\)?$/;

const fnv = (text: string): string => {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  return (hash >>> 0).toString(16).padStart(8, '0');
};

const frames = (error: unknown): string[] => String((error as Error | null)?.stack ?? '').split('\n').filter((line) => POSITION.test(line));

/** The stack frame that threw ('' without a stack). */
export const thrownIn = (error: unknown): string => frames(error)[0] ?? '';

/** Within the schema's lengths, whatever `class` and `message` hold (they may come from a component's window). */
export const errorOf = (name: unknown, message: unknown, stack: unknown): ErrorDigest => ({
  class: String(name).slice(0, 64),
  message: String(message).slice(0, 200),
  stack: /^[\da-f]{8}$/.test(stack as string) ? (stack as string) : NO_STACK,
});

/** `fallback`: the message when no error value came (a cross-origin "Script error."). */
export const digest = (error: unknown, fallback = ''): ErrorDigest =>
  errorOf(
    error == null ? 'Error' : (error as { constructor?: { name?: string } }).constructor?.name || 'Object',
    error instanceof Error ? error.message : error == null ? fallback : '',
    fnv(frames(error).map((line) => line.replace(POSITION, '').trim()).join('\n')),
  );
