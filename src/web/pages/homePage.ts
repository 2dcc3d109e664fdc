import type { VerifiedContractSummary } from '../../useCases/index.js';
import { type Html, html } from '../html.js';
import { layout } from '../layout.js';
import { contractTable } from './contractTable.js';

/** `/`: what the service is, the search box, the latest verified contracts. */
export function homePage(data: {
  chainId: number;
  latest: readonly VerifiedContractSummary[];
  total: number;
  message?: string;
  query?: string;
  proxies?: ReadonlySet<string>;
}): Html {
  return layout(
    { title: 'Contract verification', chainId: data.chainId, query: data.query },
    html`<div class="card hero">
<h1>Verified smart contracts on chain ${data.chainId}</h1>
<p>solproof checks that published Solidity source code compiles to exactly the code deployed at an address,
and then serves that source and ABI to everyone. Tools that verify on Etherscan (Hardhat, Foundry, OpenZeppelin's upgrades plugin)
work against its <a href="/docs/api">Etherscan-compatible API</a>.</p>
${data.message ? html`<p class="notice err">${data.message}</p>` : ''}
<form action="/search" method="get" role="search">
<input type="search" name="q" value="${data.query ?? ''}" placeholder="Address (0x…) or receipt" aria-label="Contract address" maxlength="120">
<button type="submit">Look up</button>
</form>
</div>
<h2>Latest verified contracts <span class="muted">(${data.total} in all)</span></h2>
${contractTable(data.latest, data.proxies)}
<p class="links"><a href="/contracts">All verified contracts →</a><a href="/verified-contracts.csv">Open-source licensed contracts (CSV)</a><a href="/docs/api">API documentation</a></p>`,
  );
}
