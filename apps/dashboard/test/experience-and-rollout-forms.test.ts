import { applyOp, definitionOf, editorOf, editorOp, readEditor } from '../src/routes/experience-editor-form.js';
import { defaultStartForm, startPlanOf } from '../src/routes/rollout-start-form.js';

/*
 * src/routes/experience-editor-form.ts and rollout-start-form.ts: the flat fields as segments and a
 * plan, percentages as thousandths, the add / remove buttons, and text that is no number named as the
 * domain names a field. What the domain checks (operators, sums, rising stages) is its own tests'.
 */

const fields = {
  'segments.0.name': ' germany ',
  'segments.0.rules.0.attribute': 'country',
  'segments.0.rules.0.operator': 'in',
  'segments.0.rules.0.values': 'DE, AT,, ',
  'segments.0.arms.0.variant': 'v-a',
  'segments.0.arms.0.weight': '12.345',
  'segments.0.arms.2.variant': 'v-b',
  'segments.0.arms.2.weight': '87.655%',
  'segments.3.name': 'everyone',
  'segments.3.arms.0.variant': 'v-a',
  'segments.3.arms.0.weight': '100',
  op: 'save',
};

test('the fields as segments in order (gaps closed), values split on commas, weights in thousandths of a percent', () => {
  const definition = definitionOf(readEditor(fields));
  expect(definition).toEqual({
    segments: [
      { name: 'germany', rules: [{ attribute: 'country', operator: 'in', values: ['DE', 'AT'] }], arms: [{ variantId: 'v-a', weight: 12_345 }, { variantId: 'v-b', weight: 87_655 }] },
      { name: 'everyone', rules: [], arms: [{ variantId: 'v-a', weight: 100_000 }] },
    ],
  });
  expect(definitionOf(editorOf(definition))).toEqual(definition);
});

test('a weight with more than 3 decimals or no number is refused, naming the arm', () => {
  expect(() => definitionOf(readEditor({ ...fields, 'segments.0.arms.2.weight': '87.6551' }))).toThrow('segments[0].arms[1].weight: "87.6551" is not a percentage with at most 3 decimals (12.5).');
  expect(() => definitionOf(readEditor({ ...fields, 'segments.3.arms.0.weight': 'all' }))).toThrow('segments[1].arms[0].weight:');
});

test('the add and remove buttons change the editor; an unknown op is refused', () => {
  const segments = readEditor(fields);
  const pressed = (value: string) => {
    const op = editorOp(value);
    if (op.kind === 'save') throw new Error(`${value} saves`);
    return applyOp(segments, op);
  };
  expect(pressed('add-segment').map((s) => s.name)).toEqual([' germany ', 'everyone', 'segment 3']);
  expect(pressed('remove-segment-0').map((s) => s.name)).toEqual(['everyone']);
  expect(pressed('add-rule-1')[1]!.rules).toEqual([{ attribute: '', operator: 'equals', values: '' }]);
  expect(pressed('remove-arm-0-0')[0]!.arms.map((a) => a.variantId)).toEqual(['v-b']);
  expect(pressed('remove-rule-0-0')[0]!.rules).toEqual([]);
  expect(editorOp('')).toEqual({ kind: 'save' });
  expect(() => editorOp('drop-tables')).toThrow('op: "drop-tables" is not one of the editor\'s buttons.');
});

test('the start form: the defaults as a plan, empty rows dropped, rise in percentage points; no candidate, or text that is no number, named', () => {
  expect(startPlanOf({ ...defaultStartForm(), candidate: 'v-a' })).toEqual({
    candidateVariantId: 'v-a',
    stages: [1_000, 5_000, 25_000, 50_000, 100_000].map((weight, i) => ({ weight, holdMinutes: i === 4 ? 0 : 60 })),
    guard: { minSessionsPerArm: 200, windowSessions: 200, minErrorRateRise: 0.01, minZ: 3, regressedWindows: 2, sampleRatioP: 0.001 },
  });
  const form = { ...defaultStartForm(), candidate: 'v-a' };
  expect(() => startPlanOf(defaultStartForm())).toThrow('candidateVariantId: choose the candidate variant from the list.');
  expect(() => startPlanOf({ ...form, guard: { ...form.guard, minZ: 'high' } })).toThrow('guard.minZ: "high" is not a number.');
  expect(startPlanOf({ ...form, guard: { ...form.guard, minZ: '', minErrorRateRise: '2.5' } }).guard).toMatchObject({ minZ: 3, minErrorRateRise: 0.025 });
});
