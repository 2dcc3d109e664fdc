import { type Html, type HtmlValue, html } from './html.js';

/** Same-origin scripts and styles only: nothing inline runs, whatever a stored text holds. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export interface PageOptions {
  title: string;
  chainId: number;
  /** Seconds after which the browser reloads the page (progress pages). */
  refreshSeconds?: number | undefined;
  /** Put into the search box. */
  query?: string | undefined;
}

/** The whole document around a page's main content. */
export function layout(options: PageOptions, content: HtmlValue): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${options.refreshSeconds ? html`<noscript><meta http-equiv="refresh" content="${options.refreshSeconds}"></noscript>` : ''}
<title>${options.title} · solproof</title>
<link rel="icon" href="/favicon.ico" sizes="16x16">
<link rel="stylesheet" href="/static/explorer.css">
<script src="/static/explorer.js" defer></script>
</head>
<body>
<header class="top">
  <a class="brand" href="/">solproof</a>
  <nav>
    <a href="/contracts">Verified contracts</a>
    <a href="/verify">Verify &amp; Publish</a>
    <a href="/verified-contracts.csv">CSV export</a>
    <a href="/compilers">Compilers</a>
    <a href="/docs/api">API</a>
  </nav>
  <form class="search" action="/search" method="get" role="search">
    <input type="search" name="q" value="${options.query ?? ''}" placeholder="Address, receipt or contract name" aria-label="Address, receipt or contract name" maxlength="120">
    <button type="submit">Search</button>
  </form>
</header>
<main>
${content}
</main>
<footer>solproof · contract verification for chain id ${options.chainId}</footer>
</body>
</html>
`;
}

/** A date as `2025-01-31 12:34:56 UTC` inside a <time> element. */
export function timeTag(epochMs: number): Html {
  const date = new Date(epochMs);
  if (Number.isNaN(date.getTime())) return html`<span>unknown</span>`;
  const iso = date.toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 19).replace('T', ' ')} UTC</time>`;
}

/** A link to an address's contract page (the address must be validated by the caller). */
export function addressLink(address: string): Html {
  const lower = address.toLowerCase();
  return html`<a class="addr" href="/address/${lower}" title="${lower}">${lower}</a>`;
}
