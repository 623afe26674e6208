/**
 * The reserved domain of the sandbox's simulator addresses (docs/sandbox.md); `.test` names never exist on the
 * Internet. A leaf, because the email records mark their mail to it (`simulated`, docs/security.md) and the
 * sandbox, far above them, serves it.
 */
export const SIMULATOR_DOMAIN = 'simulator.postwire.test';

/** Whether `address` is at the simulator domain, whatever its mailbox. */
export const isSimulatorAddress = (address: string) => address.toLowerCase().endsWith(`@${SIMULATOR_DOMAIN}`);
