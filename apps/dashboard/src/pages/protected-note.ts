import type { SafeHtml } from '@cp/web-forms';
import { reasonNote } from './parts/disabled-reason.js';

/** Beside a member's Publish / Roll back on a protected environment: it sends a release request. */
export const protectedNote = (environmentName: string, id: string): SafeHtml =>
  reasonNote(`${environmentName} is protected: your publish sends a release request; an owner or admin of the organization approves it.`, id, 'span');
