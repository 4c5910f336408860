import { encodeKeyPath, keyProblem } from './object-key.js';

describe('keyProblem', () => {
  it.each(['staging/3f1c/index.html', "it's $(odd) & fine.html", 'ünïcödé/✓', 'a'.repeat(1024)])(
    'accepts %j',
    (key) => {
      expect(keyProblem(key)).toBeNull();
    },
  );

  it.each([
    ['', /empty/],
    ['a'.repeat(1025), /1024 bytes/],
    ['é'.repeat(513), /1024 bytes/],
    ['a\nb', /control character/],
    ['a\u0000b', /control character/],
    ['/leading', /empty segment/],
    ['trailing/', /empty segment/],
    ['double//slash', /empty segment/],
    ['a/./b', /"\." or "\.\."/],
    ['../escape', /"\." or "\.\."/],
    ['lone \ud800 surrogate', /Unicode/],
  ])('refuses %j', (key, problem) => {
    expect(keyProblem(key)).toMatch(problem);
  });
});

describe('encodeKeyPath', () => {
  it('encodes each segment as RFC 3986 and SigV4 require, keeping the slashes', () => {
    expect(encodeKeyPath("a b/it's (x)!*~-._/é?#&=+")).toBe(
      'a%20b/it%27s%20%28x%29%21%2A~-._/%C3%A9%3F%23%26%3D%2B',
    );
  });
});
