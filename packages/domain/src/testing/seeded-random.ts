// Read once: a global looked up in the generator is many times slower in a vm context (jest's tests).
const imul = Math.imul;

/** A seeded generator of numbers in [0, 1) (mulberry32): the same sequence at every run, for tests that need many values. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = imul(t ^ (t >>> 15), t | 1);
    t ^= t + imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
