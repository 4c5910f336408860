import { EventRing } from '../src/changes/event-ring.js';

/* The resume rules of GET /changes, at the ring's edges (a ring of 4 records). */

const ringWith = (count: number) => {
  const ring = new EventRing(4, 'abc123');
  for (let i = 1; i <= count; i += 1) ring.append(i % 3 === 0 ? null : `id-${i}`);
  return ring;
};

test('event ids are <epoch>-<seq>; a resume returns the records after that point, oldest first', () => {
  const ring = ringWith(3);
  expect(ring.eventId(ring.lastSeq)).toBe('abc123-3');
  expect(ring.after('abc123-1')).toEqual([{ seq: 2, id: 'id-2' }, { seq: 3, id: null }]);
  expect(ring.after('abc123-3')).toEqual([]);
  expect(ring.after('abc123-0')).toHaveLength(3);
});

test('a point whose successors were forgotten is too old; the oldest resumable point still works', () => {
  const ring = ringWith(10);
  // Records 7..10 are kept: resuming from 6 needs only those, from 5 would need 6.
  expect(ring.after('abc123-6')?.map((record) => record.seq)).toEqual([7, 8, 9, 10]);
  expect(ring.after('abc123-5')).toBeNull();
});

test.each(['other1-2', 'abc123-11', 'abc123-', 'abc123-1.5', 'abc123--1', 'abc123', '', `abc123-${'9'.repeat(20)}`])(
  'no resume from %p (another epoch, the future, or malformed)',
  (eventId) => {
    expect(ringWith(10).after(eventId)).toBeNull();
  },
);
