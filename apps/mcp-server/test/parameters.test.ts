/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-return -- tool results are JSON, checked by assertions */
import type { User } from '@cp/domain';
import { createTestDomain, type TestDomain } from './support/domain.js';
import { aUser, rpc, startHarness, toolCall, type Harness } from './support/harness.js';
import { aProject, html, runInShell } from './support/upload.js';

/*
 * Bad values for every parameter of every tool, each with the exact error the
 * caller reads. Schema-level refusals are INVALID_INPUT "Invalid arguments for
 * <tool>: ..."; values that pass the schema but break a domain rule come back
 * with the domain's code and message.
 */
let domain: TestDomain;
let h: Harness;
let alice: User;
let token: string;
let componentId: string;

beforeAll(async () => {
  domain = await createTestDomain();
  h = await startHarness({ domain: domain.deps });
  alice = await aUser(h.domain);
  token = await h.tokenFor(alice);
  const started = await callTool('upload_component', { name: 'Params' });
  const project = await aProject(html('params'));
  await runInShell('sh', started.structuredContent.curlCommand, project.dir);
  componentId = (await callTool('confirm_upload', { uploadId: started.structuredContent.uploadId })).structuredContent.componentId;
});
afterAll(async () => {
  await h.close();
  await domain.close();
});

async function callTool(name: string, args: unknown): Promise<{ isError?: boolean; structuredContent: any }> {
  const { status, json } = await rpc(h.mcpUrl, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }, { token });
  expect(status).toBe(200);
  return json.result;
}

const UUID_EXAMPLE = 'a UUID such as "3f2b8c1e-5d4a-4b7e-9c1f-2a6d8e0b7c45".';
const invalid = (tool: string, problem: string) => ({ code: 'INVALID_INPUT', message: `Invalid arguments for ${tool}: ${problem}` });
const long = (n: number) => 'x'.repeat(n);
const unknownId = '00000000-0000-4000-8000-000000000000';

type Case = [tool: string, description: string, args: () => Record<string, unknown>, expected: () => { code: string; message: string }];

const cases: Case[] = [
  ['whoami', 'an unknown parameter', () => ({ verbose: true }), () => invalid('whoami', 'unknown parameter "verbose" (this tool takes no parameters).')],
  ['list_organizations', 'an unknown parameter', () => ({ limit: 1 }), () => invalid('list_organizations', 'unknown parameter "limit" (this tool takes no parameters).')],
  ['get_service_guide', 'an unknown parameter', () => ({ topic: 'x' }), () => invalid('get_service_guide', 'unknown parameter "topic" (this tool takes no parameters).')],

  ['list_components', 'organizationId missing', () => ({}), () => invalid('list_components', 'organizationId is required.')],
  ['list_components', 'organizationId a number', () => ({ organizationId: 5 }), () => invalid('list_components', 'organizationId must be a string (an id from list_organizations).')],
  ['list_components', 'organizationId empty', () => ({ organizationId: '' }), () => invalid('list_components', 'organizationId must not be empty; get one from list_organizations.')],
  ['list_components', 'organizationId too long', () => ({ organizationId: long(201) }), () => invalid('list_components', 'organizationId must be at most 200 characters.')],
  ['list_components', 'organizationId unknown', () => ({ organizationId: unknownId }), () => ({ code: 'NOT_FOUND', message: `Organization "${unknownId}" was not found, or you do not have access to it.` })],
  ['list_components', 'name a number', () => ({ organizationId: alice.defaultOrganizationId, name: 1 }), () => invalid('list_components', 'name must be a string.')],
  ['list_components', 'name too long', () => ({ organizationId: alice.defaultOrganizationId, name: long(101) }), () => invalid('list_components', 'name must be at most 100 characters.')],
  ['list_components', 'limit 0', () => ({ organizationId: alice.defaultOrganizationId, limit: 0 }), () => invalid('list_components', 'limit must be an integer from 1 to 200.')],
  ['list_components', 'limit 201', () => ({ organizationId: alice.defaultOrganizationId, limit: 201 }), () => invalid('list_components', 'limit must be an integer from 1 to 200.')],
  ['list_components', 'limit 1.5', () => ({ organizationId: alice.defaultOrganizationId, limit: 1.5 }), () => invalid('list_components', 'limit must be an integer from 1 to 200.')],
  ['list_components', 'limit a string', () => ({ organizationId: alice.defaultOrganizationId, limit: '10' }), () => invalid('list_components', 'limit must be an integer from 1 to 200.')],
  ['list_components', 'limit null', () => ({ organizationId: alice.defaultOrganizationId, limit: null }), () => invalid('list_components', 'limit must not be null; omit it instead.')],
  ['list_components', 'cursor empty', () => ({ organizationId: alice.defaultOrganizationId, cursor: '' }), () => invalid('list_components', 'cursor must not be empty; omit it for the first page.')],
  ['list_components', 'cursor a number', () => ({ organizationId: alice.defaultOrganizationId, cursor: 3 }), () => invalid('list_components', 'cursor must be a string (the nextCursor of a previous call).')],
  ['list_components', 'cursor too long', () => ({ organizationId: alice.defaultOrganizationId, cursor: long(1001) }), () => invalid('list_components', 'cursor must be at most 1000 characters.')],
  ['list_components', 'cursor forged', () => ({ organizationId: alice.defaultOrganizationId, cursor: 'not-a-cursor' }), () => DOMAIN_CURSOR],
  ['list_components', 'an unknown parameter', () => ({ organizationId: alice.defaultOrganizationId, offset: 10 }), () => invalid('list_components', 'unknown parameter "offset" (accepted: organizationId, name, limit, cursor).')],

  ['get_component', 'componentId missing', () => ({}), () => invalid('get_component', 'componentId is required.')],
  ['get_component', 'componentId not a UUID', () => ({ componentId: 'abc' }), () => invalid('get_component', `componentId must be ${UUID_EXAMPLE}`)],
  ['get_component', 'componentId a number', () => ({ componentId: 12 }), () => invalid('get_component', `componentId must be ${UUID_EXAMPLE}`)],
  ['get_component', 'componentId unknown', () => ({ componentId: unknownId }), () => ({ code: 'NOT_FOUND', message: `Component "${unknownId}" was not found, or you do not have access to it.` })],
  ['get_component', 'environment a number', () => ({ componentId, environment: 1 }), () => invalid('get_component', 'environment must be a string.')],
  ['get_component', 'environment empty', () => ({ componentId, environment: '' }), () => invalid('get_component', 'environment must not be empty.')],
  ['get_component', 'environment too long', () => ({ componentId, environment: long(33) }), () => invalid('get_component', 'environment must be at most 32 characters.')],
  ['get_component', 'environment malformed', () => ({ componentId, environment: 'PROD!' }), () => DOMAIN_ENV_MALFORMED],
  ['get_component', 'environment unknown', () => ({ componentId, environment: 'qa' }), () => DOMAIN_ENV_UNKNOWN],
  ['get_component', 'includeContent a string', () => ({ componentId, includeContent: 'yes' }), () => invalid('get_component', 'includeContent must be true or false.')],

  ['list_variants', 'componentId not a UUID', () => ({ componentId: 'abc' }), () => invalid('list_variants', `componentId must be ${UUID_EXAMPLE}`)],
  ['list_variants', 'limit 0', () => ({ componentId, limit: 0 }), () => invalid('list_variants', 'limit must be an integer from 1 to 100.')],
  ['list_variants', 'limit 101', () => ({ componentId, limit: 101 }), () => invalid('list_variants', 'limit must be an integer from 1 to 100.')],
  ['list_variants', 'beforeSequence 0', () => ({ componentId, beforeSequence: 0 }), () => invalid('list_variants', 'beforeSequence must be a positive integer (a nextBeforeSequence from a previous call).')],
  ['list_variants', 'beforeSequence a string', () => ({ componentId, beforeSequence: 'x' }), () => invalid('list_variants', 'beforeSequence must be a positive integer (a nextBeforeSequence from a previous call).')],

  ['edit_component_tags', 'componentId missing', () => ({ add: ['x'] }), () => invalid('edit_component_tags', 'componentId is required.')],
  ['edit_component_tags', 'componentId not a UUID', () => ({ componentId: 'x', add: ['x'] }), () => invalid('edit_component_tags', `componentId must be ${UUID_EXAMPLE}`)],
  ['edit_component_tags', 'no mode', () => ({ componentId }), () => ({ code: 'INVALID_INPUT', message: 'tags: pass "add", "remove" or "set".' })],
  ['edit_component_tags', 'add a string', () => ({ componentId, add: 'x' }), () => invalid('edit_component_tags', 'add must be an array of strings.')],
  ['edit_component_tags', 'add with a number', () => ({ componentId, add: [1] }), () => invalid('edit_component_tags', 'add items must be strings.')],
  ['edit_component_tags', 'add with a long tag', () => ({ componentId, add: [long(51)] }), () => invalid('edit_component_tags', 'each tag in add must be at most 50 characters.')],
  ['edit_component_tags', 'add with too many tags', () => ({ componentId, add: Array.from({ length: 101 }, (_, i) => `t${i}`) }), () => invalid('edit_component_tags', 'add may hold at most 100 tags.')],
  ['edit_component_tags', 'add with an empty tag', () => ({ componentId, add: ['  '] }), () => ({ code: 'INVALID_INPUT', message: 'add: tags must not be empty or only whitespace.' })],
  ['edit_component_tags', 'remove with a number', () => ({ componentId, remove: [true] }), () => invalid('edit_component_tags', 'remove items must be strings.')],
  ['edit_component_tags', 'remove an object', () => ({ componentId, remove: { a: 1 } }), () => invalid('edit_component_tags', 'remove must be an array of strings.')],
  ['edit_component_tags', 'set with a control character', () => ({ componentId, set: ['a\u0007b'] }), () => ({ code: 'INVALID_INPUT', message: 'set: tag "a\u0007b" contains control characters.' })],
  ['edit_component_tags', 'set with add', () => ({ componentId, set: [], add: ['a'] }), () => ({ code: 'INVALID_INPUT', message: 'set: "set" replaces the whole list and cannot be combined with "add" or "remove". Send one mode per call.' })],
  ['edit_component_tags', 'one tag in add and remove', () => ({ componentId, add: ['a'], remove: ['a'] }), () => ({ code: 'INVALID_INPUT', message: 'tags: "a" is in both "add" and "remove"; name each tag in one of them.' })],
  ['edit_component_tags', 'set with 51 tags', () => ({ componentId, set: Array.from({ length: 51 }, (_, i) => `t${i}`) }), () => ({ code: 'TOO_MANY_TAGS', message: 'A component can have at most 50 tags.' })],

  ['upload_component', 'neither name nor componentId', () => ({}), () => ({ code: 'INVALID_INPUT', message: 'name: pass "name" (from service.config.json) to create a new component, or "componentId" to add a version to an existing one.' })],
  ['upload_component', 'name a number', () => ({ name: 3 }), () => invalid('upload_component', 'name must be a string.')],
  ['upload_component', 'name too long', () => ({ name: long(101) }), () => invalid('upload_component', 'name must be at most 100 characters.')],
  ['upload_component', 'name blank', () => ({ name: '   ' }), () => ({ code: 'INVALID_INPUT', message: 'name: the component name must not be empty.' })],
  ['upload_component', 'componentId not a UUID', () => ({ componentId: 'my-component' }), () => invalid('upload_component', `componentId must be ${UUID_EXAMPLE}`)],
  ['upload_component', 'componentId unknown', () => ({ componentId: unknownId }), () => ({ code: 'NOT_FOUND', message: `Component "${unknownId}" was not found, or you do not have access to it.` })],
  ['upload_component', 'organization empty', () => ({ name: 'n', organization: '' }), () => invalid('upload_component', 'organization must not be empty; omit it to use your default organization.')],
  ['upload_component', 'organization a number', () => ({ name: 'n', organization: 7 }), () => invalid('upload_component', 'organization must be a string (a name or an id).')],
  ['upload_component', 'organization unknown', () => ({ name: 'n', organization: 'No Such Org' }), () => DOMAIN_ORG_UNKNOWN],

  ['confirm_upload', 'uploadId missing', () => ({}), () => invalid('confirm_upload', 'uploadId is required.')],
  ['confirm_upload', 'uploadId not a UUID', () => ({ uploadId: 'upload-1' }), () => invalid('confirm_upload', `uploadId must be ${UUID_EXAMPLE}`)],
  ['confirm_upload', 'uploadId unknown', () => ({ uploadId: unknownId }), () => ({ code: 'NOT_FOUND', message: `Upload "${unknownId}" was not found, or you do not have access to it.` })],

  ['publish_component', 'environment missing', () => ({ componentId }), () => invalid('publish_component', 'environment is required.')],
  ['publish_component', 'componentId missing', () => ({ environment: 'prod' }), () => invalid('publish_component', 'componentId is required.')],
  ['publish_component', 'environment unknown', () => ({ componentId, environment: 'qa' }), () => DOMAIN_ENV_UNKNOWN],
  ['publish_component', 'variantId not a UUID', () => ({ componentId, environment: 'prod', variantId: 'v1' }), () => invalid('publish_component', `variantId must be ${UUID_EXAMPLE}`)],
  ['publish_component', 'variantId unknown', () => ({ componentId, environment: 'prod', variantId: unknownId }), () => DOMAIN_VARIANT_UNKNOWN],

  ['get_experience', 'environment missing', () => ({ componentId }), () => invalid('get_experience', 'environment is required.')],
  ['set_experience', 'segments missing', () => ({ componentId, environment: 'staging' }), () => invalid('set_experience', 'segments is required.')],
  ['set_experience', 'segments an object', () => ({ componentId, environment: 'staging', segments: {} }), () => invalid('set_experience', 'segments must be an array of { name, rules, arms }.')],
  ['set_experience', 'segments 21', () => ({ componentId, environment: 'staging', segments: Array.from({ length: 21 }, (_, i) => ({ name: `s${i}`, arms: [{ variantId: unknownId, percent: 100 }] })) }), () => invalid('set_experience', 'an experience holds at most 20 segments.')],
  ['set_experience', 'a segment without arms', () => ({ componentId, environment: 'staging', segments: [{ name: 'All', arms: [] }] }), () => invalid('set_experience', 'a segment needs at least one arm.')],
  ['set_experience', 'an unknown operator', () => ({ componentId, environment: 'staging', segments: [{ name: 'All', rules: [{ attribute: 'country', operator: 'contains', values: ['D'] }], arms: [{ variantId: unknownId, percent: 100 }] }] }), () => invalid('set_experience', "a rule's operator must be one of equals, in, not_in, prefix.")],
  ['set_experience', 'an arm variant not a UUID', () => ({ componentId, environment: 'staging', segments: [{ name: 'All', arms: [{ variantId: 'v7', percent: 100 }] }] }), () => invalid('set_experience', `variantId must be ${UUID_EXAMPLE}`)],
  ['set_experience', 'a percent finer than 0.001', () => ({ componentId, environment: 'staging', segments: [{ name: 'All', arms: [{ variantId: unknownId, percent: 99.9999 }] }] }), () => invalid('set_experience', 'percent must be a percentage from 0.001 to 100 with at most 3 decimals (12.5 means 12.5%).')],
  ['set_experience', 'a percent of 0', () => ({ componentId, environment: 'staging', segments: [{ name: 'All', arms: [{ variantId: unknownId, percent: 0 }] }] }), () => invalid('set_experience', 'percent must be a percentage from 0.001 to 100 with at most 3 decimals (12.5 means 12.5%).')],
  ['set_experience', 'a weight instead of a percent', () => ({ componentId, environment: 'staging', segments: [{ name: 'All', arms: [{ variantId: unknownId, percent: 100, weight: 100_000 }] }] }), () => invalid('set_experience', 'unknown field "weight" in segments[0].arms[0].')],
  ['publish_experience', 'phase unknown', () => ({ componentId, environment: 'staging', phase: 'reset' }), () => invalid('publish_experience', 'phase must be "keep" or "new".')],
  ['publish_experience', 'revision 0', () => ({ componentId, environment: 'staging', revision: 0 }), () => invalid('publish_experience', 'revision must be a revision number (1, 2, ...) from get_experience.')],
  ['publish_experience', 'expectedLive a string', () => ({ componentId, environment: 'staging', expectedLive: '3' }), () => invalid('publish_experience', 'expectedLive must be a revision number (1, 2, ...) from get_experience.')],
  ['start_rollout', 'candidateVariantId missing', () => ({ componentId, environment: 'prod' }), () => invalid('start_rollout', 'candidateVariantId is required.')],
  ['start_rollout', 'stages empty', () => ({ componentId, environment: 'prod', candidateVariantId: unknownId, stages: [] }), () => invalid('start_rollout', 'stages needs at least one stage; omit it for the default stages.')],
  ['start_rollout', 'a hold of a fraction of a minute', () => ({ componentId, environment: 'prod', candidateVariantId: unknownId, stages: [{ percent: 5, holdMinutes: 0.5 }] }), () => invalid('start_rollout', 'holdMinutes must be a whole number of minutes from 0 to 10080.')],
  ['start_rollout', 'a guard setting unknown', () => ({ componentId, environment: 'prod', candidateVariantId: unknownId, guard: { minErrorRateRise: 0.01 } }), () => invalid('start_rollout', 'unknown field "minErrorRateRise" in guard.')],
  ['start_rollout', 'an error rate rise over 100 points', () => ({ componentId, environment: 'prod', candidateVariantId: unknownId, guard: { errorRateRisePoints: 150 } }), () => invalid('start_rollout', 'guard.errorRateRisePoints must be from 0 to 100 percentage points.')],
  ['get_rollout', 'componentId not a UUID', () => ({ componentId: 'abc', environment: 'prod' }), () => invalid('get_rollout', `componentId must be ${UUID_EXAMPLE}`)],
  ['change_rollout', 'action unknown', () => ({ componentId, environment: 'prod', action: 'rollback', expectedRevision: 1 }), () => invalid('change_rollout', 'action must be "advance", "pause" or "resume".')],
  ['change_rollout', 'expectedRevision missing', () => ({ componentId, environment: 'prod', action: 'pause' }), () => invalid('change_rollout', 'expectedRevision is required.')],
  ['promote_rollout', 'expectedRevision 0', () => ({ componentId, environment: 'prod', expectedRevision: 0 }), () => invalid('promote_rollout', 'expectedRevision must be the rollout revision you last read (get_rollout answers it).')],
  ['stop_rollout', 'reason too long', () => ({ componentId, environment: 'prod', reason: long(501) }), () => invalid('stop_rollout', 'reason must be at most 500 characters.')],
];

// Messages owned by the domain (its rules decide them); asserted exactly all the same.
let DOMAIN_CURSOR: { code: string; message: string };
let DOMAIN_ENV_MALFORMED: { code: string; message: string };
let DOMAIN_ENV_UNKNOWN: { code: string; message: string };
let DOMAIN_ORG_UNKNOWN: { code: string; message: string };
let DOMAIN_VARIANT_UNKNOWN: { code: string; message: string };
beforeAll(() => {
  DOMAIN_CURSOR = { code: 'INVALID_INPUT', message: 'cursor: this is not a cursor returned by list_components; start again without a cursor.' };
  DOMAIN_ENV_MALFORMED = { code: 'INVALID_INPUT', message: 'environment: "PROD!" is not an environment name: use 1-32 lower-case letters, digits or "-", starting with a letter (for example "prod").' };
  DOMAIN_ENV_UNKNOWN = { code: 'NOT_FOUND', message: 'Environment "qa" does not exist in this organization. Known environments: prod, staging.' };
  DOMAIN_ORG_UNKNOWN = { code: 'NOT_FOUND', message: 'Organization "No Such Org" was not found, or you do not have access to it.' };
  DOMAIN_VARIANT_UNKNOWN = { code: 'NOT_FOUND', message: `Variant "${unknownId}" was not found, or you do not have access to it.` };
});

test.each(cases)('%s: %s', async (tool, _description, args, expected) => {
  const result = await callTool(tool, args());
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toEqual({ success: false, error: expected() });
});

test('arguments that are not an object are a JSON-RPC invalid-params error', async () => {
  const { json } = await rpc(h.mcpUrl, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami', arguments: [1] } }, { token });
  expect(json.error).toEqual({ code: -32602, message: 'Invalid params: tools/call takes "name" (a string) and "arguments" (an object).' });
});

test('a tool name that is not a string is a JSON-RPC invalid-params error', async () => {
  const { json } = await rpc(h.mcpUrl, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 5 } }, { token });
  expect(json.error.code).toBe(-32602);
});

test('an unexpected failure is INTERNAL with a generic message that names the request id', async () => {
  const broken = await createTestDomain();
  const other = await startHarness({ domain: { ...broken.deps, objects: { ...broken.deps.objects, presignPut: () => Promise.reject(new Error('secret internal detail at http://10.0.0.1')) } } });
  const user = await aUser(other.domain);
  const { json } = await rpc(other.mcpUrl, toolCall('upload_component', { name: 'boom' }), { token: await other.tokenFor(user), headers: { 'x-request-id': 'req-boom' } });
  expect(json.result.isError).toBe(true);
  expect(json.result.structuredContent).toEqual({
    success: false,
    error: { code: 'INTERNAL', message: 'Something went wrong on the server. Try again in a moment; if it keeps failing, report request id req-boom.' },
  });
  expect(JSON.stringify(json)).not.toContain('secret');
  await other.close();
  await broken.close();
});

