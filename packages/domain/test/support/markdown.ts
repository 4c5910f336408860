/*
 * Just enough Markdown for checking the repository's own links: links and
 * reference definitions outside code, and headings with GitHub's anchor slugs.
 */

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const CODE_SPAN = /(`+)[\s\S]*?\1/g;
const INLINE_LINK = /!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*(?:<([^>]*)>|([^)\s]+))(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g;
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]]+\]:\s*(?:<([^>]*)>|(\S+))/gm;
const HEADING = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;

/** The lines that are not inside fenced code blocks. */
function proseLines(markdown: string): string[] {
  const lines: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const marker = FENCE.exec(line)?.[1];
    if (fence !== null) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length) fence = null;
    } else if (marker !== undefined) fence = marker;
    else lines.push(line);
  }
  return lines;
}

/** Every link target written in the prose (inline links, images, reference definitions), as written. */
export function linkTargets(markdown: string): string[] {
  const prose = proseLines(markdown).join('\n').replace(CODE_SPAN, '');
  const targets: string[] = [];
  for (const pattern of [INLINE_LINK, REFERENCE_DEFINITION]) {
    for (const match of prose.matchAll(pattern)) targets.push(match[1] ?? match[2] ?? '');
  }
  return targets;
}

/** What GitHub renders a heading's text as: code kept verbatim, link targets, tags and emphasis marks dropped. */
function renderedText(heading: string): string {
  return heading
    .split(/(`+[\s\S]*?`+)/)
    .map((part, index) =>
      index % 2 === 1
        ? part.replace(/^`+\s?|\s?`+$/g, '')
        : part.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '').replace(/[*]/g, ''),
    )
    .join('');
}

/** GitHub's anchor for a heading (github-slugger): lower case, punctuation dropped, spaces to dashes. */
export function slugOf(heading: string): string {
  return renderedText(heading)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors a document's headings get, repeated ones numbered as GitHub does (`x`, `x-1`, `x-2`). */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(markdown)) {
    const text = HEADING.exec(line)?.[1];
    if (text === undefined) continue;
    const slug = slugOf(text);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}
