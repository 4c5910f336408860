import { Ajv, type CodeOptions, type ValidateFunction } from 'ajv';
import { RE2JS } from 're2js';
import { APP_LIMITS as L, type AppSettings, type InputSchema } from '../entities/component-app.js';
import { invalidInput } from '../errors/factories.js';

/*
 * One JSON Schema dialect for the app's input, checked where it is saved and applied where the
 * tool is called: draft-07, as the MCP SDK validates tool input. Each schema gets its own Ajv:
 * a shared one would register every schema's `$id`, so one organization's schema could block
 * (same `$id`) or be `$ref`erenced by another's, and its cache would keep every schema ever seen.
 * Compiled functions are kept per schema text, so a call does not compile again (a bounded map:
 * schemas are few per deployment).
 */
const compiled = new Map<string, ValidateFunction>();
const MAX_COMPILED = 500;

/**
 * A schema's `pattern`s run on every call's arguments: RE2 matches in linear time, where the
 * built-in backtracking engine could be held for minutes by a pattern like `^(a+)+$`. RE2 has
 * no lookaround or backreferences; a schema using them is refused when saved.
 */
const linearRegExp: NonNullable<CodeOptions['regExp']> = Object.assign((pattern: string) => RE2JS.compile(pattern), { code: 're2js' });

const newAjv = (): Ajv => new Ajv({ allErrors: false, strict: false, validateSchema: true, code: { regExp: linearRegExp } });

function compile(schema: InputSchema): ValidateFunction {
  const text = JSON.stringify(schema);
  let validate = compiled.get(text);
  if (validate === undefined) {
    validate = newAjv().compile(schema);
    if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value!);
    compiled.set(text, validate);
  }
  return validate;
}

/** Where the schema breaks the draft-07 meta-schema, and how: its first error; null when it does not. */
function metaSchemaProblem(schema: InputSchema): string | null {
  const ajv = newAjv();
  if (ajv.validateSchema(schema) === true) return null;
  const error = ajv.errors?.[0];
  if (error === undefined) return 'it does not match the draft-07 meta-schema';
  const where = error.instancePath === '' ? 'the schema' : error.instancePath.slice(1).replaceAll('/', '.');
  const allowed = (error.params as { allowedValues?: unknown[] }).allowedValues;
  return `${where} ${error.message ?? 'is invalid'}${allowed ? ` (${allowed.join(', ')})` : ''}`;
}

/** An action a component sends (`cpSend`) and a tool name of this server. */
const ACTION = /^[A-Za-z][A-Za-z0-9_.:-]*$/;
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

function checkText(field: string, value: unknown, max: number): void {
  if (typeof value !== 'string' || value.trim().length === 0) throw invalidInput(field, 'must be a non-empty string.');
  if (value.length > max) throw invalidInput(field, `is ${value.length} characters long; the limit is ${max}.`);
}

/** Why the schema cannot be used, or null. */
function schemaProblem(schema: InputSchema): string | null {
  try {
    const problem = metaSchemaProblem(schema);
    if (problem !== null) return problem;
    // Compiling finds what the meta-schema cannot: unresolvable `$ref`s, bad patterns.
    compile(schema);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message.slice(0, 300) : 'it does not compile';
  }
}

/** Whether `value` nests objects and arrays deeper than `limit`, found without recursion. */
function nestsDeeper(value: unknown, limit: number): boolean {
  const open: [unknown, number][] = [[value, 1]];
  for (let next = open.pop(); next !== undefined; next = open.pop()) {
    const [item, depth] = next;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > limit) return true;
    for (const child of Object.values(item)) open.push([child, depth + 1]);
  }
  return false;
}

function checkInputSchema(schema: InputSchema | null): void {
  if (schema === null) return;
  if (typeof schema !== 'object' || Array.isArray(schema)) throw invalidInput('inputSchema', 'must be a JSON Schema object, or null for any object.');
  if (nestsDeeper(schema, L.inputSchemaDepth)) {
    throw invalidInput('inputSchema', `nests objects and arrays more than ${L.inputSchemaDepth} levels deep. Flatten it, or use "definitions" and "$ref".`);
  }
  const bytes = new TextEncoder().encode(JSON.stringify(schema)).length;
  if (bytes > L.inputSchemaBytes) throw invalidInput('inputSchema', `is ${bytes} bytes of JSON; the limit is ${L.inputSchemaBytes}. Shorten it (descriptions, examples, enums).`);
  if (schema.type !== 'object') {
    throw invalidInput('inputSchema', 'must have "type": "object": a tool takes its arguments as one object, e.g. {"type":"object","properties":{"price":{"type":"string"}}}.');
  }
  const problem = schemaProblem(schema);
  if (problem !== null) {
    throw invalidInput('inputSchema', `is not a valid JSON Schema (draft-07): ${problem}. Fix the schema, or leave it out to accept any object.`);
  }
}

function checkActionTools(actionTools: Readonly<Record<string, string>>): void {
  if (typeof actionTools !== 'object' || actionTools === null || Array.isArray(actionTools)) {
    throw invalidInput('actionTools', 'must be an object mapping an action name to a tool name.');
  }
  const entries = Object.entries(actionTools);
  if (entries.length > L.actionTools) throw invalidInput('actionTools', `maps ${entries.length} actions; the limit is ${L.actionTools}.`);
  for (const [action, tool] of entries) {
    if (action.length > L.actionChars || !ACTION.test(action) || action.startsWith('cp:')) {
      throw invalidInput(`actionTools["${action.slice(0, L.actionChars)}"]`, `is not an action name: a letter, then letters, digits, "_", ".", ":" or "-", at most ${L.actionChars} characters, not starting with "cp:" (the SDK's own).`);
    }
    if (typeof tool !== 'string' || !TOOL_NAME.test(tool)) {
      throw invalidInput(`actionTools["${action}"]`, 'must be the name of a tool of this server (letters, digits, "_", "." or "-").');
    }
  }
}

/** What makes an app's settings valid, environment aside (its existence is the use case's check). */
export function checkAppSettings(settings: AppSettings): void {
  checkText('title', settings.title, L.titleChars);
  checkText('description', settings.description, L.descriptionChars);
  checkInputSchema(settings.inputSchema);
  checkActionTools(settings.actionTools);
}

/** Why `args` fail the app's input schema (the first error: where in the arguments, and the schema's rule), or null when they pass. */
export function appArgumentsProblem(schema: InputSchema | null, args: unknown): string | null {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return 'the arguments must be an object';
  if (schema === null) return null;
  const validate = compile(schema);
  try {
    if (validate(args)) return null;
  } catch (error) {
    // A recursive schema (`$ref: "#"`) follows the arguments as deep as they go.
    if (error instanceof RangeError) return 'the arguments nest too deeply';
    throw error;
  }
  const error = validate.errors?.[0];
  if (error === undefined) return 'the arguments do not match the input schema';
  const where = error.instancePath === '' ? 'the arguments' : error.instancePath.slice(1).replaceAll('/', '.');
  return `${where} ${error.message ?? 'do not match the input schema'} (input schema ${error.schemaPath})`;
}
