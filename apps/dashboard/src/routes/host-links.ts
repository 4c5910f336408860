import type { HostLinks } from '../pages/host-snippet.js';

/**
 * Where a host page gets the SDK and where the delivery API's demo page renders this component:
 * both live on the delivery API (`deliveryUrl`, no trailing slash); the dashboard only links there.
 */
export function hostLinks(deliveryUrl: string, componentId: string): HostLinks {
  return {
    scriptUrl: `${deliveryUrl}/host/v1.js`,
    demo: (env) => {
      const params = new URLSearchParams({ component: componentId });
      if (env === null) params.set('preview', 'true');
      else params.set('env', env);
      return `${deliveryUrl}/examples/host?${params.toString()}`;
    },
  };
}
