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
