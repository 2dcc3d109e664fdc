/**
 * "Resubmit with this change": a failed submission's fields, with the change its diagnosis found
 * applied, as the Verify & Publish form's values (the key is left for the user to enter).
 * Pure: the route reads the job.
 */

import { withV } from '../core/compilerVersion.js';
import type { SettingChange } from '../core/diagnosis.js';
import type { SourceSubmission } from '../core/types.js';
import { emptyFormValues, type VerifyFormValues } from './verifyForm.js';

/** The form's values for `submission` with `changes` applied. */
export function resubmissionValues(submission: SourceSubmission, changes: readonly SettingChange[], sentRuns: number): VerifyFormValues {
  const values = emptyFormValues(submission.address);
  values.compiler = submission.compilerVersion;
  values.optimization = submission.optimizationUsed;
  values.runs = String(submission.runs);
  values.evmVersion = submission.evmVersion;
  values.viaIR = submission.viaIR;
  values.contractName = submission.contractName;
  values.constructorArguments = submission.constructorArguments;
  values.license = submission.licenseType ? String(submission.licenseType) : '';
  values.libraries = submission.libraries.map((l) => ({ name: l.name, address: l.address }));
  // A standard JSON input carries its settings: the changes go into them.
  const input = submission.codeFormat === 'solidity-standard-json-input' ? structuredClone(submission.standardJson) : null;
  const settings = input?.settings;
  for (const c of changes) {
    switch (c.setting) {
      case 'compilerVersion':
        values.compiler = withV(c.to);
        break;
      case 'optimizer':
        values.optimization = c.to === 'enabled';
        values.runs = String(sentRuns);
        if (settings) settings.optimizer = { ...settings.optimizer, enabled: c.to === 'enabled', runs: settings.optimizer?.runs ?? sentRuns };
        break;
      case 'runs':
        values.optimization = true;
        values.runs = c.to;
        if (settings) settings.optimizer = { ...settings.optimizer, enabled: true, runs: Number(c.to) };
        break;
      case 'evmVersion':
        values.evmVersion = c.to;
        if (settings) {
          if (c.to) settings.evmVersion = c.to;
          else delete settings.evmVersion;
        }
        break;
      case 'viaIR':
        values.viaIR = c.to === 'true';
        if (settings) {
          if (c.to === 'true') settings.viaIR = true;
          else delete settings.viaIR;
        }
        break;
      case 'bytecodeHash':
        if (settings && (c.to === 'ipfs' || c.to === 'bzzr1' || c.to === 'none')) settings.metadata = { ...settings.metadata, bytecodeHash: c.to };
        break;
      case 'appendCBOR':
        if (settings) settings.metadata = { ...settings.metadata, appendCBOR: c.to === 'true' };
        break;
      case 'contractName':
        values.contractName = c.to;
        break;
      case 'constructorArguments':
        values.constructorArguments = c.to;
        break;
      case 'library': {
        const at = values.libraries.findIndex((l) => l.name === c.name);
        if (at >= 0) values.libraries[at] = { name: c.name ?? '', address: c.to };
        else values.libraries.push({ name: c.name ?? '', address: c.to });
        break;
      }
    }
  }
  if (submission.codeFormat === 'solidity-single-file') {
    values.format = 'single';
    values.source = submission.sourceCode;
  } else {
    values.format = 'json';
    values.standardJson = JSON.stringify(input);
  }
  return values;
}
