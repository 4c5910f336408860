import { invalidInput, type AppSettings, type ComponentApp, type InputSchema } from '@cp/domain';
import { z } from 'zod';
import { text } from '../kit/form-input.js';

/*
 * The "In AI assistants" form (docs/mcp-apps.md, section 2): the settings as typed text, so that a
 * refused save shows exactly what the person typed. The schema is JSON; the action → tool
 * mappings one `action = tool` per line. What the text means is the domain's to check.
 */

export interface AppForm {
  readonly environment: string;
  readonly title: string;
  readonly description: string;
  /** JSON, or empty for none. */
  readonly inputSchema: string;
  /** One `action = tool` per line. */
  readonly actionTools: string;
}

export const appFormInput = z.object({ environment: text, title: text, description: text, inputSchema: text, actionTools: text });

/** The saved settings as the form shows them; an empty form (the first environment chosen) without an app. */
export const appFormOf = (app: ComponentApp | null, firstEnvironment: string): AppForm =>
  app === null
    ? { environment: firstEnvironment, title: '', description: '', inputSchema: '', actionTools: '' }
    : {
        environment: app.environmentName,
        title: app.title,
        description: app.description,
        inputSchema: app.inputSchema === null ? '' : JSON.stringify(app.inputSchema, null, 2),
        actionTools: Object.entries(app.actionTools)
          .map(([action, tool]) => `${action} = ${tool}`)
          .join('\n'),
      };

const EXAMPLE_SCHEMA = '{"type":"object","properties":{"price":{"type":"string"}}}';

function inputSchemaOf(typed: string): InputSchema | null {
  if (typed.trim() === '') return null;
  try {
    return JSON.parse(typed) as InputSchema;
  } catch (error) {
    const reason = error instanceof Error ? error.message.slice(0, 200) : 'it does not parse';
    throw invalidInput('inputSchema', `is not valid JSON (${reason}). Paste a JSON Schema object such as ${EXAMPLE_SCHEMA}, or leave the field empty to accept any arguments.`);
  }
}

function actionToolsOf(typed: string): Record<string, string> {
  const mappings: Record<string, string> = {};
  for (const [index, line] of typed.split(/\r?\n/).entries()) {
    if (line.trim() === '') continue;
    const at = line.indexOf('=');
    const [action, tool] = at < 0 ? ['', ''] : [line.slice(0, at).trim(), line.slice(at + 1).trim()];
    const field = `actionTools (line ${index + 1})`;
    if (action === '' || tool === '') throw invalidInput(field, `"${line.trim().slice(0, 60)}" is not "action = tool": write one mapping per line, e.g. "buy = publish_component".`);
    if (Object.hasOwn(mappings, action)) throw invalidInput(field, `maps "${action.slice(0, 60)}" again: an action calls one tool.`);
    mappings[action] = tool;
  }
  return mappings;
}

/** The settings the typed form means; text the form itself cannot read (bad JSON, a line without "=") is INVALID_INPUT saying how to write it. */
export const appSettingsOf = (form: AppForm): AppSettings => ({
  environment: form.environment,
  title: form.title,
  description: form.description,
  inputSchema: inputSchemaOf(form.inputSchema),
  actionTools: actionToolsOf(form.actionTools),
});
