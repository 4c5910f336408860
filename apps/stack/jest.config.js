import preset from '@cp/jest-preset';

// The outage tests leave client sockets (to service processes already stopped) that
// keep jest's process alive after every test has passed; each test closes what it
// opened, the services are separate processes, so nothing is hidden by exiting.
export default { ...preset, forceExit: true };
