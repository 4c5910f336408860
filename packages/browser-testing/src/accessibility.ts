import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';

/** One rule a page breaks, in a line a failing assertion can show: the rule, its impact and where. */
export interface AccessibilityViolation {
  readonly rule: string;
  readonly impact: string;
  readonly help: string;
  readonly targets: readonly string[];
}

let axeSource: Promise<string> | undefined;
const source = (): Promise<string> =>
  (axeSource ??= readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));

/**
 * What axe-core finds on the page as it is shown now: every rule it runs by default, every impact.
 * Evaluated through the browser's protocol rather than a script tag, so the page's
 * Content-Security-Policy stays as served. Frames are left out: they hold other documents
 * (a component's preview), though each frame element itself is checked.
 */
export async function accessibilityViolations(page: Page): Promise<AccessibilityViolation[]> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(await source());
  const results = await page.evaluate(() =>
    (globalThis as unknown as { axe: { run(options: object): Promise<AxeResults> } }).axe.run({ resultTypes: ['violations'], iframes: false }),
  );
  return results.violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact ?? 'unknown',
    help: violation.help,
    targets: violation.nodes.map((node) => node.target.join(' ')),
  }));
}
