// .env.example documents every variable compose.yml interpolates and every variable the
// services read: each app's list of settings (`<app>Settings.names` in apps/<app>/src/settings.ts,
// the very list its env.ts parses), imported here. check.sh runs this file under tsx.
import { authSettings } from '../../apps/auth-server/src/settings.ts';
import { dashboardSettings } from '../../apps/dashboard/src/settings.ts';
import { deliverySettings } from '../../apps/delivery-api/src/settings.ts';
import { mcpSettings } from '../../apps/mcp-server/src/settings.ts';
import { workerSettings } from '../../apps/worker/src/settings.ts';

const settingsOf = {
  'auth-server': authSettings,
  'mcp-server': mcpSettings,
  'delivery-api': deliverySettings,
  dashboard: dashboardSettings,
  worker: workerSettings,
};

export function checkSettingsDocumented({ documented, composeVariables, report }) {
  for (const name of composeVariables)
    if (!documented.has(name))
      report.fail('.env.example', `${name} (used in compose.yml) is not documented`);
  let appVariables = 0;
  for (const [app, settings] of Object.entries(settingsOf)) {
    for (const name of settings.names) {
      appVariables++;
      if (!documented.has(name))
        report.fail(
          '.env.example',
          `${name} (read by apps/${app}) is not documented: add a line \`# ${name}=<default>\` with a comment`,
        );
    }
  }
  report.pass(
    `.env.example documents the ${composeVariables.size} variables compose.yml uses and the ${appVariables} settings the services read`,
  );
}
