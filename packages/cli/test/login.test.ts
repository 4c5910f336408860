import { startDeviceAuthStandIn } from './support/device-auth-stand-in.js';
import { aConfigDir, runCpc } from './support/run-cpc.js';

// The device flow against the real auth server, with a person in Chromium, is device-login.browser.test.ts.
// Here only what the real server does not produce on demand: an auth server failing while the CLI polls.

test('an auth server that answers 503 while polling: exit 7, SERVICE_UNAVAILABLE', async () => {
  const auth = await startDeviceAuthStandIn();
  try {
    const run = await runCpc(['login', '--no-browser', '--json'], { CPC_SERVER: auth.mcpUrl, CPC_CONFIG_DIR: await aConfigDir() });
    expect(run.code).toBe(7);
    expect(run.envelope.error).toEqual({ code: 'SERVICE_UNAVAILABLE', message: expect.stringContaining('the database is down'), exitCode: 7 });
    expect(auth.tokenRequests).toBe(1);
  } finally {
    await auth.close();
  }
});
