import { type Html, type HtmlValue, html } from '../html.js';
import { layout } from '../layout.js';

/** A page that only says something: bad input, not found, an internal error. */
export function messagePage(data: { chainId: number; title: string; message: HtmlValue; query?: string }): Html {
  return layout(
    { title: data.title, chainId: data.chainId, query: data.query },
    html`<h1>${data.title}</h1>
<div class="card"><p>${data.message}</p><p><a href="/">Back to the start page</a></p></div>`,
  );
}

/** An unknown path: where to go instead (the search box above takes an address, receipt or name). */
export function notFoundPage(data: { chainId: number; path: string }): Html {
  return layout(
    { title: 'Page not found', chainId: data.chainId },
    html`<h1>Page not found</h1>
<div class="card not-found"><p>There is no page at <code>${data.path}</code>.</p>
<p>Search for an address, a receipt or a contract name above, or go to:</p>
<ul><li><a href="/">the start page</a></li><li><a href="/contracts">the verified contracts</a></li><li><a href="/verify">Verify &amp; Publish</a></li><li><a href="/docs/api">the API's documentation</a></li></ul></div>`,
  );
}
