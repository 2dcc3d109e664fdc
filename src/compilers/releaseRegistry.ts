import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseCompilerVersion, releaseOf } from '../core/compilerVersion.js';
import { knownSolcRelease, type ReleaseLookup, type SolcRelease } from '../core/solcReleases.js';

/** How many learned releases are kept (nightlies included); far more than exist per year. */
const MAX_LEARNED = 5000;

/**
 * Which commit each solc release has: the table shipped with the service, and what the
 * compiler sources taught since (a newer release loaded from npm, the mirror's list). A
 * version naming a known release with another commit is not a compiler; it is refused
 * without a download. Learned releases persist in `<cacheDir>/releases.json`.
 */
export class ReleaseRegistry {
  private readonly learned = new Map<string, SolcRelease>();

  constructor(
    private readonly file: string | null,
    private readonly shipped: ReleaseLookup = knownSolcRelease,
  ) {
    if (!file) return;
    try {
      const saved = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      for (const [release, entry] of Object.entries(saved)) {
        const e = entry as Partial<SolcRelease> | null;
        if (typeof e?.longVersion === 'string' && parseCompilerVersion(e.longVersion)) {
          this.learned.set(release, { longVersion: e.longVersion, npmPackage: typeof e.npmPackage === 'string' ? e.npmPackage : null });
        }
      }
    } catch {
      // Nothing learned yet, or an unreadable file: the shipped table still answers.
    }
  }

  /** A registry that keeps what it learns in `cacheDir`. */
  static inCache(cacheDir: string, shipped?: ReleaseLookup): ReleaseRegistry {
    return new ReleaseRegistry(join(cacheDir, 'releases.json'), shipped);
  }

  /** The release (`0.8.26`, or a nightly's `0.8.27-nightly.2024.5.1`) as known, or null. */
  readonly lookup: ReleaseLookup = (release) => this.shipped(release) ?? this.learned.get(release) ?? null;

  /**
   * Like lookup, for which npm package holds a release: a release learned from a mirror's list
   * (no package recorded) counts as not known, since no npm package was asked about it yet.
   */
  readonly npmLookup: ReleaseLookup = (release) => {
    const shipped = this.shipped(release);
    if (shipped) return shipped;
    const learned = this.learned.get(release);
    return learned && learned.npmPackage !== null ? learned : null;
  };

  /** The releases learned beyond the shipped table (for listing them). */
  learnedReleases(): ReadonlyMap<string, SolcRelease> {
    return this.learned;
  }

  /**
   * Records a long version a source vouched for: the mirror's list, or the version a loaded
   * compiler reported. The shipped table is never overridden.
   */
  learn(longVersion: string, npmPackage: string | null = null): void {
    if (this.remember(longVersion, npmPackage)) this.save();
  }

  /** Like learn, for a whole list (one write). */
  learnMany(longVersions: readonly string[]): void {
    let changed = false;
    for (const long of longVersions) changed = this.remember(long, null) || changed;
    if (changed) this.save();
  }

  private remember(longVersion: string, npmPackage: string | null): boolean {
    const v = parseCompilerVersion(longVersion);
    if (!v) return false;
    const release = releaseOf(v);
    if (this.shipped(release)) return false;
    const known = this.learned.get(release);
    if (known && known.longVersion === v.long && (npmPackage === null || known.npmPackage === npmPackage)) return false;
    if (!known && this.learned.size >= MAX_LEARNED) return false;
    this.learned.set(release, { longVersion: v.long, npmPackage: npmPackage ?? known?.npmPackage ?? null });
    return true;
  }

  private save(): void {
    if (!this.file) return;
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      const temp = `${this.file}.${process.pid}.tmp`;
      writeFileSync(temp, JSON.stringify(Object.fromEntries(this.learned)));
      renameSync(temp, this.file);
    } catch {
      // Learning is an optimisation: the next download teaches it again.
    }
  }
}
