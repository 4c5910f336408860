export { default } from '@cp/eslint-config';
