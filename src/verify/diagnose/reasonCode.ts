import type { StoredDiagnosis } from '../../core/diagnosis.js';
/** A stable reason code per failure family, for tools. */
export function diagnosisReasonCode(d: Pick<StoredDiagnosis, 'code' | 'fix'> & { unrelated?: boolean | undefined }): string {
  if (d.unrelated) return 'unrelated_code';
  const setting = d.fix?.changes[0]?.setting;
  const bySetting: Record<string, string> = {
    compilerVersion: 'wrong_compiler_version',
    optimizer: 'wrong_optimizer',
    optimize: 'wrong_optimizer',
    runs: 'wrong_runs',
    evmVersion: 'wrong_evm_version',
    viaIR: 'wrong_via_ir',
    bytecodeHash: 'wrong_metadata_settings',
    appendCBOR: 'wrong_metadata_settings',
    contractName: 'wrong_contract_name',
    constructorArguments: 'wrong_constructor_arguments',
    library: 'wrong_library_address',
  };
  if (setting && bySetting[setting]) return bySetting[setting];
  if (d.code === 'constructor_arguments_mismatch') return 'wrong_constructor_arguments';
  if (d.code === 'library_mismatch') return 'wrong_library_address';
  if (d.code === 'contract_not_found_in_output') return 'contract_not_in_sources';
  return 'bytecode_mismatch';
}
