import type { SolcSettings } from './solcTypes.js';

/** The settings Etherscan's records show, as read from a compiled input's settings. */
export interface SettingsSummary {
  optimizationUsed: boolean;
  /** 200 when the settings do not say (solc's default). */
  runs: number;
  /** '' when the compiler default was used. */
  evmVersion: string;
  viaIR: boolean;
}

export function settingsSummary(settings: SolcSettings | Record<string, unknown>): SettingsSummary {
  const s = settings as SolcSettings;
  return {
    optimizationUsed: s.optimizer?.enabled === true,
    runs: typeof s.optimizer?.runs === 'number' ? s.optimizer.runs : 200,
    evmVersion: typeof s.evmVersion === 'string' ? s.evmVersion : '',
    viaIR: s.viaIR === true,
  };
}
