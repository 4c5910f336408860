import { dirname, join, normalize } from 'node:path/posix';
import { headingAnchors, linkTargets } from './markdown.js';

/** A Markdown file of the repository: its path from the repository root (with `/`), and its text. */
export interface MarkdownDocument {
  readonly path: string;
  readonly text: string;
}

const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/**
 * Every relative link that does not resolve: a file or folder that does not exist, a path that
 * leaves the repository, or an `#anchor` that no heading of the Markdown file it names produces.
 * External links (a scheme, or `//`) are not fetched.
 */
export function brokenLinks(documents: readonly MarkdownDocument[], exists: (path: string) => boolean): string[] {
  const byPath = new Map(documents.map((document) => [document.path, document]));
  const anchorsOf = new Map<string, Set<string>>();
  const anchors = (document: MarkdownDocument): Set<string> => {
    let found = anchorsOf.get(document.path);
    if (!found) anchorsOf.set(document.path, (found = headingAnchors(document.text)));
    return found;
  };
  const problems: string[] = [];
  for (const document of documents) {
    for (const target of linkTargets(document.text)) {
      if (EXTERNAL.test(target)) continue;
      const hash = target.indexOf('#');
      const file = hash === -1 ? target : target.slice(0, hash);
      const anchor = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
      const path = file === '' ? document.path : normalize(join(dirname(document.path), decodeURI(file))).replace(/\/$/, '');
      const where = `${document.path}: (${target})`;
      if (path === '..' || path.startsWith('../') || path.startsWith('/')) problems.push(`${where} leaves the repository`);
      else if (!exists(path)) problems.push(`${where} names ${path}, which does not exist`);
      else if (anchor !== null && path.endsWith('.md')) {
        const named = byPath.get(path);
        if (!named) problems.push(`${where}: ${path} is not one of the checked documents, so its headings are unknown`);
        else if (!anchors(named).has(anchor)) problems.push(`${where}: ${path} has no heading with the anchor #${anchor}`);
      }
    }
  }
  return problems;
}
