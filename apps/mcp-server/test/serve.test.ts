import { registerUser, startUpload } from '@cp/domain';
import { grantLookupFromMap } from '@cp/domain/testing';
import { makeConfig } from '../src/config.js';
import { silentLogger } from '@cp/http-runtime';
import { serveMcp } from '../src/serve.js';
import { createTestDomain, type TestDomain } from './support/domain.js';

describe('serveMcp', () => {
  let domain: TestDomain;
  beforeAll(async () => {
    domain = await createTestDomain({ uploadTtlSeconds: 1 });
  });
  afterAll(() => domain.close());

  test('sweeps expired upload sessions in the background', async () => {
    const user = await registerUser({ email: 'sweep@example.com' }, domain.deps);
    const { session } = await startUpload({ actor: { userId: user.id }, name: 'Soon expired' }, domain.deps);
    const service = await serveMcp({
      config: makeConfig({ port: 0 }),
      host: '127.0.0.1',
      domain: domain.deps,
      usage: domain.usage,
      figures: domain.figures,
      grants: grantLookupFromMap(new Map()),
      redisUrl: null,
      log: silentLogger(),
      sweepIntervalSeconds: 0.5,
    });
    try {
      const deadline = Date.now() + 10_000;
      let state = session.state;
      while (state === 'pending' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        state = (await domain.deps.repos.uploadSessions.findById(session.id))!.state;
      }
      expect(state).toBe('expired');
    } finally {
      await service.close();
    }
  });
});
