import { compareVersions } from '../../core/compilerVersion.js';
import type { DeployedFacts, SettingChange, SubmittedSettings } from '../../core/diagnosis.js';

/**
 * The metadata settings the deployed auxdata shows the code was built with, where the
 * submission has others, to be applied together: a CBOR or none (appendCBOR: only false
 * leaves it out, from 0.8.18), and the hash kind (bytecodeHash, from 0.6.0: ipfs, bzzr1, or
 * none for a CBOR without a hash). Before 0.6.0 the hash kind is not a setting (bzzr0, then
 * bzzr1 from 0.5.11). Without CBOR the hash kind is none: solc refuses appendCBOR false with
 * another bytecodeHash.
 */
export function revealedMetadataChanges(sent: SubmittedSettings, facts: Pick<DeployedFacts, 'hashKind'>): SettingChange[] {
  const out: SettingChange[] = [];
  const release = releaseOf(sent.compilerVersion);
  const dropCBOR = facts.hashKind === 'absent' && sent.appendCBOR && release !== null && compareVersions(release, '0.8.18') >= 0;
  if (dropCBOR) out.push({ setting: 'appendCBOR', from: 'true', to: 'false' });
  if (facts.hashKind !== 'absent' && !sent.appendCBOR) out.push({ setting: 'appendCBOR', from: 'false', to: 'true' });
  const kind = facts.hashKind === 'ipfs' || facts.hashKind === 'bzzr1' || facts.hashKind === 'none' ? facts.hashKind : dropCBOR ? 'none' : null;
  if (kind && kind !== sent.bytecodeHash && release && compareVersions(release, '0.6.0') >= 0) {
    out.push({ setting: 'bytecodeHash', from: sent.bytecodeHash, to: kind });
  }
  return out;
}

/**
 * The metadata settings without which nothing can match: a deployed CBOR with a metadata hash
 * (ipfs, bzzr1) matches only compiled code whose auxdata has the same length, so another
 * bytecodeHash never matches; and code compiled without CBOR (appendCBOR false) never matches
 * a deployed code that has it. The deployed `none` kind is asked for with appendCBOR, so the
 * compiled auxdata has the deployed shape (the creation code can match too).
 */
export function requiredMetadataChanges(sent: SubmittedSettings, facts: Pick<DeployedFacts, 'hashKind'>): SettingChange[] {
  const revealed = revealedMetadataChanges(sent, facts);
  const addCBOR = revealed.some((c) => c.setting === 'appendCBOR' && c.to === 'true');
  return revealed.filter((c) => (c.setting === 'appendCBOR' ? c.to === 'true' : c.to !== 'none' || addCBOR));
}

/** `0.8.24` of `v0.8.24+commit.e11b9ed9`; null when it does not start with a release. */
export function releaseOf(compilerVersion: string): string | null {
  const m = /^v?(\d+\.\d+\.\d+)/.exec(compilerVersion);
  return m ? m[1]! : null;
}
