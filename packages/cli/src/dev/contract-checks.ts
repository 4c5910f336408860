import { defaultDomainConfig, DomainError, ErrorCode, inspectHtmlDocument, type HtmlDocument } from '@cp/domain';
import type { ContractProblem } from './contract-problems.js';

export type FileCheck = { readonly ok: true; readonly document: HtmlDocument } | { readonly ok: false; readonly problems: readonly ContractProblem[] };

// As the frame document finds it (packages/host frame/bootstrap.ts): after comments and whitespace, first thing.
const DOCTYPE = /^\uFEFF?(?:\s*<!--[\s\S]*?-->)*\s*<!doctype\s+html\s*>/i;

// The domain's message ends with what to do through the MCP tools; the dev loop says its own.
const reasonOf = (error: DomainError): string => error.message.replace(/\s*Upload the built[\s\S]*$/, '');

/**
 * The checks an upload gets (the domain's size limit and its html-document rules), plus the doctype
 * the frame needs for standards mode: what a file must pass before the dev page may run it.
 */
export function checkComponentFile(bytes: Uint8Array, maxBytes: number = defaultDomainConfig.maxUploadBytes): FileCheck {
  if (bytes.byteLength > maxBytes) {
    return {
      ok: false,
      problems: [{
        kind: 'too-large',
        message: `The file is ${bytes.byteLength} bytes; uploads are limited to ${maxBytes} bytes. Make it smaller (minify, move large assets to a CDN).`,
      }],
    };
  }
  let document: HtmlDocument;
  try {
    document = inspectHtmlDocument(bytes);
  } catch (error) {
    if (error instanceof DomainError && error.code === ErrorCode.UploadNotHtml) {
      return { ok: false, problems: [{ kind: 'not-html', message: `${reasonOf(error)} Fix the build output.` }] };
    }
    throw error;
  }
  if (!DOCTYPE.test(document.html)) {
    return {
      ok: false,
      problems: [{
        kind: 'no-doctype',
        message: 'The file does not start with <!doctype html>: the component\'s frame would render it in quirks mode. Put <!doctype html> on its first line.',
      }],
    };
  }
  return { ok: true, document };
}
