import { PREVIEW_ENVIRONMENT } from '@cp/domain';

const counts = new Intl.NumberFormat('en-US');

/** A count with thousands separated: "12,345". */
export const count = (n: number): string => counts.format(n);

/** A share as a percentage with one decimal ("2.5 %"), "—" with nothing to divide. */
export const rate = (share: number | null): string => (share === null ? '—' : `${(share * 100).toFixed(1)} %`);

/** An estimated duration: one decimal under 10 ms, whole milliseconds above; "—" when nothing was measured. */
export const ms = (value: number | null): string => (value === null ? '—' : `${value < 10 && value !== 0 ? value.toFixed(1) : Math.round(value)} ms`);

/** An environment's name as the tables show it; events about previews have none. */
export const environmentName = (environment: string): string => (environment === PREVIEW_ENVIRONMENT ? 'previews' : environment);

/** A variant in an environment: "v3 in prod". */
export const variantIn = (variantLabel: string, environment: string): string => `${variantLabel} in ${environmentName(environment)}`;

/** UTC to the minute, as text (the pages' `when` marks it up as a <time>). */
export const utcMinute = (date: Date): string => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
