import { describe, expect, it } from 'vitest';
import { COMPILER_LISTING_FIELDS, type CompilerBuild, type CompilerListing } from '../../core/compilerListing.js';
import { ageText, compilersPage, filterBuilds, MAX_COMPILER_ROWS } from './compilersPage.js';

const EVIL = `"'><img src=x onerror=alert(1)></script><script>alert(2)</script>`;

function release(version: string, extra: Partial<CompilerBuild> = {}): CompilerBuild {
  const longVersion = `${version}+commit.0123abcd`;
  return {
    version,
    longVersion,
    compilerVersion: `v${longVersion}`,
    nightly: false,
    known: true,
    cached: false,
    sources: ['npm'],
    npmPackage: version,
    ...extra,
  };
}

function listing(builds: CompilerBuild[], sources: CompilerListing['sources'] = {}): CompilerListing {
  return { builds, sources, generatedAt: '2025-01-31T12:04:00.000Z', fields: COMPILER_LISTING_FIELDS };
}

const BUILDS = [
  release('0.9.0-nightly.2025.1.2', { nightly: true, known: false, sources: ['mirror'], npmPackage: null }),
  release('0.8.26', { cached: true, sources: ['cache', 'npm'] }),
  release('0.8.7', { npmPackage: '0.8.7-fixed' }),
  release('0.8.1', { sources: [], npmPackage: null }),
  release('0.4.26'),
];

describe('compilersPage', () => {
  it('escapes what the sources and the request bring (source URLs, errors, versions, the search text)', () => {
    const page = compilersPage({
      chainId: 31337,
      query: EVIL,
      nightlies: true,
      listing: listing([release(EVIL, { longVersion: EVIL, compilerVersion: EVIL, npmPackage: EVIL })], {
        npm: { url: EVIL, fetchedAt: '2025-01-31T12:00:00.000Z', ageSeconds: 240, builds: 1, error: EVIL, failedAt: '2025-01-31T12:03:00.000Z' },
      }),
    }).value;
    expect(page).not.toMatch(/<img|<script>alert/);
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;&lt;/script&gt;&lt;script&gt;alert(2)&lt;/script&gt;');
    expect(page).toContain(`value="&quot;&#39;&gt;&lt;img`);
    // the one script is the explorer's own
    expect(page.match(/<script/g)).toHaveLength(1);
  });

  it("shows each source's age and last failure, and a source the service has none of", () => {
    const page = compilersPage({
      chainId: 31337,
      query: '',
      nightlies: false,
      listing: listing(BUILDS, {
        npm: {
          url: 'http://127.0.0.1:9/',
          fetchedAt: '2025-01-31T11:00:00.000Z',
          ageSeconds: 3840,
          builds: 3,
          error: 'GET http://127.0.0.1:9/solc failed: ECONNREFUSED',
          failedAt: '2025-01-31T12:03:00.000Z',
        },
      }),
    }).value;
    expect(page).toContain('solc-bin mirror</dt><dd><span class="muted">not configured</span>');
    expect(page).toContain('3 builds, list fetched <time datetime="2025-01-31T11:00:00.000Z">2025-01-31 11:00:00 UTC</time> (1 hour ago)');
    expect(page).toContain(
      'The last refresh failed at <time datetime="2025-01-31T12:03:00.000Z">2025-01-31 12:03:00 UTC</time>: GET http://127.0.0.1:9/solc failed: ECONNREFUSED',
    );
    expect(page).toContain('<td class="mono">v0.8.26+commit.0123abcd</td>');
    expect(page).toContain('<span class="badge ok">cached</span>');
    expect(page).toContain('<span class="badge warn">no source has it now</span>');
    expect(page).not.toContain('nightly.2025');
    expect(page).toContain('4 of 5 builds.');
  });

  it('filters on the server: by version, long version or npm package; nightlies when asked or searched for', () => {
    const versions = (q: string, nightlies = false) => filterBuilds(BUILDS, q, nightlies).map((b) => b.version);
    expect(versions('')).toEqual(['0.8.26', '0.8.7', '0.8.1', '0.4.26']);
    expect(versions('', true)).toHaveLength(5);
    expect(versions('0.8.2')).toEqual(['0.8.26']);
    expect(versions('FIXED')).toEqual(['0.8.7']);
    expect(versions('nightly')).toEqual(['0.9.0-nightly.2025.1.2']);
    expect(versions('0123ABCD')).toHaveLength(4);
  });

  it('shows at most MAX_COMPILER_ROWS rows and says how to see others', () => {
    const many = Array.from({ length: MAX_COMPILER_ROWS + 5 }, (_, i) => release(`0.8.${i}`));
    const page = compilersPage({ chainId: 1, query: '', nightlies: false, listing: listing(many) }).value;
    expect(page.match(/<tr>/g)).toHaveLength(MAX_COMPILER_ROWS + 1);
    expect(page).toContain(`Showing the newest ${MAX_COMPILER_ROWS} of ${MAX_COMPILER_ROWS + 5} matching`);
  });

  it('says ages in words', () => {
    expect(ageText(5)).toBe('less than a minute ago');
    expect(ageText(60)).toBe('1 minute ago');
    expect(ageText(3 * 3600 + 5)).toBe('3 hours ago');
    expect(ageText(2 * 86_400)).toBe('2 days ago');
  });
});
