import preset from '@cp/jest-preset';

export default { ...preset };
