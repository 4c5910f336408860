import { createHash } from 'node:crypto';
import { parse } from 'parse5';
import { DomainError, ErrorCode } from '../errors/domain-error.js';

export interface HtmlDocument {
  readonly html: string;
  readonly size: number;
  /** Lowercase hex. */
  readonly sha256: string;
  /** Subresource Integrity of the exact bytes, `sha384-<base64>`. */
  readonly integrity: string;
}

const notHtml = (reason: string): DomainError =>
  new DomainError(
    ErrorCode.UploadNotHtml,
    `The uploaded file is not an HTML document: ${reason} Upload the built ./dist/index.html and call confirm_upload again.`,
  );

interface Parse5Node {
  sourceCodeLocation?: unknown;
  childNodes?: Parse5Node[];
  content?: Parse5Node;
  tagName?: string;
}

const hasExplicitElement = (node: Parse5Node): boolean =>
  (node.tagName !== undefined && node.sourceCodeLocation != null) ||
  (node.childNodes ?? []).some(hasExplicitElement) ||
  (node.content !== undefined && hasExplicitElement(node.content));

/**
 * What "parses as HTML" means here: strict UTF-8, no NUL bytes, and at least one
 * element written in the source (parse5 accepts any text, so plain text, JSON or
 * a stray binary would otherwise pass as a document with an implied <html>).
 */
export function inspectHtmlDocument(bytes: Uint8Array): HtmlDocument {
  let html: string;
  try {
    html = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw notHtml('it is not valid UTF-8 text.');
  }
  if (html.trim().length === 0) throw notHtml('the file is empty.');
  if (html.includes('\u0000')) throw notHtml('it contains NUL bytes (a binary file?).');
  const document = parse(html, { sourceCodeLocationInfo: true }) as unknown as Parse5Node;
  if (!hasExplicitElement(document)) throw notHtml('it contains no HTML element.');
  return {
    html,
    size: bytes.byteLength,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    integrity: `sha384-${createHash('sha384').update(bytes).digest('base64')}`,
  };
}
