import { CpError, mount, type CpProblem } from '@component-platform/host';
import { CpComponent } from '@component-platform/host/react';
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';

// A React + Vite app as a user writes it; the test page passes the released component in the query string.
const query = new URLSearchParams(location.search);

const baseUrl = query.get('baseUrl') ?? undefined;
const log: string[] = [];
Object.assign(window, { consumerLog: log });

// The root entry's API, typed: a CpError carries its problem details.
export const problemOf = (error: unknown): CpProblem | null => (error instanceof CpError ? error.problem : null);
export const mountTyped: typeof mount = mount;

function App() {
  const [componentId, setComponentId] = useState(query.get('componentId') ?? '');
  const [greeting, setGreeting] = useState('from React');
  const [shown, setShown] = useState(true);
  Object.assign(window, { setComponentId, setGreeting, hide: () => setShown(false) });
  if (!shown) return <p id="gone">gone</p>;
  return (
    <CpComponent
      className="consumer-card"
      componentId={componentId}
      env="prod"
      baseUrl={baseUrl}
      data={{ greeting }}
      onLoad={(detail) => log.push(`load ${detail.variantId}`)}
      onError={(detail) => log.push(`error ${detail.problem.code}`)}
      onAction={(action, payload) => log.push(`action ${action} ${JSON.stringify(payload)}`)}
    />
  );
}

// @ts-expect-error componentId is a string: fails to compile if the package's types were missing (any).
export const wrong = <CpComponent componentId={1} />;

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
