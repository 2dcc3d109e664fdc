/** Funded accounts on the suite's anvil (globalSetup starts it with this many). */
export const DEVNET_ACCOUNTS = 40;
