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

/**
 * The summary of a compilation's settings in its language: a Vyper compilation's optimisation is
 * its mode (`none` turns it off; a boolean in releases before 0.3.10), it has no runs (0) and no
 * IR pipeline in solc's sense (false).
 */
export function settingsSummaryOf(language: string, settings: Record<string, unknown>): SettingsSummary {
  if (language !== 'Vyper') return settingsSummary(settings);
  const optimize = settings['optimize'];
  return {
    optimizationUsed: optimize !== 'none' && optimize !== false,
    runs: 0,
    evmVersion: typeof settings['evmVersion'] === 'string' ? settings['evmVersion'] : '',
    viaIR: false,
  };
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
