import { Limits } from '@cp/domain';
import { z } from 'zod';

/*
 * Parameter schemas shared by several tools. Messages are written for the agent
 * reading them: they name the rule so the next call can be right.
 */
export const uuid = (field: string) =>
  z.uuid({ error: `${field} must be a UUID such as "3f2b8c1e-5d4a-4b7e-9c1f-2a6d8e0b7c45".` }).describe(`${field} (UUID).`);

export const componentId = uuid('componentId').describe('The component id (UUID), as returned by list_components or confirm_upload.');

export const environmentName = z
  .string({ error: 'environment must be a string.' })
  .min(1, { error: 'environment must not be empty.' })
  .max(Limits.environmentNameMaxLength, { error: `environment must be at most ${Limits.environmentNameMaxLength} characters.` })
  .describe('Environment name, for example "staging" or "prod".');

export const tagList = (field: string, verb: string) =>
  z
    .array(
      z
        .string({ error: `${field} items must be strings.` })
        .max(Limits.tagMaxLength, { error: `each tag in ${field} must be at most ${Limits.tagMaxLength} characters.` }),
      { error: `${field} must be an array of strings.` },
    )
    .max(Limits.tagsPerEdit, { error: `${field} may hold at most ${Limits.tagsPerEdit} tags.` })
    .optional()
    .describe(`Tags to ${verb} (trimmed and de-duplicated; at most ${Limits.tagMaxLength} characters each).`);
