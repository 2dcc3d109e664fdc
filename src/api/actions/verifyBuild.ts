import { compareVersions, readSubmittedVersion, withoutV, withV } from '../../core/compilerVersion.js';
import { isSolproofError } from '../../core/errors.js';
import { errorSentence, submitRefusalText, submittedVersionText, TEXT } from '../../texts/index.js';
import { type Services, submitBuild } from '../../useCases/index.js';
import { type BuildFile, readBuildFile } from '../../verify/index.js';
import type { Caller } from '../context.js';
import { type Envelope, fail, ok } from '../envelope.js';
import type { Params } from '../params.js';

/**
 * `verifybuild`: a whole build without an address (a standard JSON input with its compiler
 * version, or a Hardhat or Foundry build-info file). Compiled once; every contract of it is
 * kept as a known compilation, and every deployed contract that is one of them is verified,
 * now and as new ones appear. One submission against the key's daily quota.
 */
export async function verifyBuild(s: Services, params: Params, caller: Caller): Promise<Envelope> {
  if (!caller.key) return fail(TEXT.invalidApiKey);
  const text = params.get('sourcecode') ?? '';
  if (!text.trim()) return fail(TEXT.missingParameter('sourceCode'));
  let file: BuildFile;
  try {
    file = readBuildFile(text);
  } catch (e) {
    if (!isSolproofError(e)) throw e;
    const text = errorSentence(e);
    return fail(TEXT.invalidParameter('sourceCode', text.charAt(0).toLowerCase() + text.slice(1, 300)));
  }
  const given = params.text('compilerversion');
  const versionText = given || (file.compilerVersion ? withV(file.compilerVersion) : '');
  if (!versionText) return fail(TEXT.missingParameter('compilerversion'));
  const version = readSubmittedVersion(versionText, s.releases);
  if (!version.ok) return fail(submittedVersionText(version.error));
  if (compareVersions(version.value.short, '0.4.11') < 0) {
    return fail(TEXT.invalidParameter('compilerversion', 'compilers older than v0.4.11 are not supported'));
  }
  const long = withoutV(version.value.long);
  if (file.compilerVersion && long !== file.compilerVersion) {
    return fail(TEXT.invalidParameter('compilerversion', `the build-info file names ${file.compilerVersion}`));
  }
  const submitted = await submitBuild(
    s,
    { key: caller.key },
    { compilerVersion: long, input: file.input as unknown as Record<string, unknown>, format: file.format },
  );
  return submitted.ok ? ok(submitted.receipt) : fail(submitRefusalText(submitted.refusal));
}
