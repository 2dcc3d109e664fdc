import { type Html, html } from '../html.js';
import { layout } from '../layout.js';

/** What `/keys` shows: how this service hands out API keys. */
export type ApiKeyPageState =
  /** Visitors may create free keys here, `perDay` per client address per UTC day. */
  | { mode: 'self_service'; perDay: number }
  /** Keys come from the operator only. */
  | { mode: 'operator' }
  /** A key was just created: shown this once. */
  | { mode: 'created'; key: string; perDay: number; left: number }
  /** This address created its keys of the day. */
  | { mode: 'limit_reached'; perDay: number; resetsAt: string }
  /** The creation was posted from a page of another site: refused, with this page's own form. */
  | { mode: 'other_site'; perDay: number };

/** `/keys`: get an API key (a free one here when the operator allows it, else who to ask). */
export function apiKeyPage(data: { chainId: number; baseUrl: string; state: ApiKeyPageState }): Html {
  const s = data.state;
  const api = `${data.baseUrl}/api`;
  const use = html`<p>Use it with every client: <code>apikey=&lt;key&gt;</code> with curl, <code>etherscan.apiKey</code> (per network) in a Hardhat config,
<code>key = "..."</code> in the <code>[etherscan]</code> entry of <code>foundry.toml</code> (API URL <code>${api}</code>). See <a href="/docs/api">the API documentation</a>.</p>`;
  let body: Html;
  switch (s.mode) {
    case 'operator':
      body = html`<p>API keys for this service are issued by its operator: ask whoever runs it for one. Reading contracts (ABIs, sources) works without a key, at one request per 5 seconds.</p>
<p class="muted">Operator: create a key with <code>npm run solproof -- keys create --owner NAME</code> (the key is the last line printed), or start the service with <code>--self-service-keys N</code> to let visitors create up to N free keys a day each on this page.</p>`;
      break;
    case 'other_site':
    case 'self_service':
      body = html`${
        s.mode === 'other_site'
          ? html`<p class="notice warn">No key was created: the request came from a page of another site. Keys are created from this page only; use its button if you meant to create one.</p>
`
          : ''
      }<p>Create a free API key: it is shown once, here, and the service keeps only its hash (it cannot show it again). Each address may create ${s.perDay} ${s.perDay === 1 ? 'key' : 'keys'} a day.</p>
<form method="post" action="/keys"><button type="submit">Create a free API key</button></form>
${use}`;
      break;
    case 'created':
      body = html`<p class="notice ok">Your API key, shown only this once (the service keeps only its hash): copy it now.</p>
<p><code class="mono" data-api-key>${s.key}</code></p>
<p class="muted">A free key: its rate and daily quotas are the free tier's. This address may create ${s.left} more ${s.left === 1 ? 'key' : 'keys'} today.</p>
${use}`;
      break;
    case 'limit_reached':
      body = html`<p class="notice warn">This address has created its ${s.perDay} free ${s.perDay === 1 ? 'key' : 'keys'} for today; it may create more after ${s.resetsAt}.</p>`;
      break;
  }
  return layout(
    { title: 'API key', chainId: data.chainId },
    html`<h1>API key</h1>
<div class="card">${body}</div>`,
  );
}
