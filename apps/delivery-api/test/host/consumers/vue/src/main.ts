import { CpComponent } from '@component-platform/vue';
import { createApp, h } from 'vue';
import App from './App.vue';

// The component's props and events, typed (App.vue is compiled by Vite, not read by tsc).
export const typed = h(CpComponent, {
  componentId: 'c',
  env: 'prod',
  live: true,
  data: { greeting: 'typed' },
  onLoad: (detail) => detail.variantId.length,
  onAction: (action, payload) => [action.toUpperCase(), payload],
});
// @ts-expect-error componentId is a string: fails to compile if the package's types were missing (any).
export const wrong = h(CpComponent, { componentId: 1 });

createApp(App).mount('#root');
