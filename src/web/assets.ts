/**
 * The explorer's stylesheet and script, served from this process (no build step). They are
 * files of their own, not inline, so the Content-Security-Policy can forbid inline code.
 */

export const EXPLORER_CSS = `
:root {
  --fg: #1d2330; --muted: #5d6778; --line: #dde2ea; --bg: #f5f7fa; --card: #fff;
  --accent: #2456c7; --ok: #137333; --okbg: #e6f4ea; --warn: #8a5300; --warnbg: #fdf1dc;
  --err: #b3261e; --errbg: #fce8e6; --mono: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace;
}
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, "DejaVu Sans", Arial, sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--accent); text-decoration: none; }
a:hover { text-decoration: underline; }
header.top { display: flex; flex-wrap: wrap; align-items: center; gap: 18px; padding: 10px 24px; background: #14213d; color: #fff; }
header.top a { color: #e3e9f7; }
header.top .brand { font-weight: 700; font-size: 19px; color: #fff; letter-spacing: .5px; }
header.top nav { display: flex; gap: 16px; }
header.top form.search { margin-left: auto; display: flex; gap: 6px; }
header.top input { width: 360px; max-width: 60vw; }
main { max-width: 1160px; margin: 22px auto; padding: 0 20px; }
footer { max-width: 1160px; margin: 30px auto; padding: 0 20px; color: var(--muted); font-size: 13px; }
h1 { font-size: 22px; margin: 0 0 14px; word-break: break-all; }
h2 { font-size: 18px; margin: 22px 0 10px; }
h3 { font-size: 15px; margin: 0 0 8px; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 16px 18px; margin-bottom: 16px; }
.card > h1:first-child, .card > h2:first-child, .tab-panel > h2:first-child { margin-top: 0; }
.muted { color: var(--muted); }
.mono, code, pre, .addr { font-family: var(--mono); font-size: 13px; }
.addr { word-break: break-all; }
input, button, select { font: inherit; }
input[type=text], input[type=search] { padding: 6px 9px; border: 1px solid var(--line); border-radius: 6px; min-width: 0; }
button { padding: 6px 14px; border: 1px solid var(--accent); border-radius: 6px; background: var(--accent); color: #fff; cursor: pointer; }
button.secondary { background: #fff; color: var(--accent); }
.badge { display: inline-block; padding: 1px 9px; border-radius: 999px; font-size: 12px; font-weight: 600; vertical-align: middle; }
.badge.ok { background: var(--okbg); color: var(--ok); }
.badge.warn { background: var(--warnbg); color: var(--warn); }
.badge.err { background: var(--errbg); color: var(--err); }
.badge.info { background: #e8eefc; color: var(--accent); }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 6px 20px; margin: 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; word-break: break-word; }
table { width: 100%; border-collapse: collapse; background: var(--card); }
th, td { text-align: left; padding: 8px 10px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: 13px; color: var(--muted); font-weight: 600; background: #fafbfc; }
.table-wrap { overflow-x: auto; border: 1px solid var(--line); border-radius: 8px; }
.tabs { display: flex; flex-wrap: wrap; gap: 4px; border-bottom: 1px solid var(--line); margin: 18px 0 0; }
.tabs a { padding: 8px 14px; border: 1px solid transparent; border-bottom: none; border-radius: 6px 6px 0 0; color: var(--muted); }
.tabs a[aria-selected=true] { background: var(--card); border-color: var(--line); color: var(--fg); font-weight: 600; margin-bottom: -1px; }
.tab-panel { background: var(--card); border: 1px solid var(--line); border-top: none; border-radius: 0 0 8px 8px; padding: 16px 18px; margin-bottom: 16px; }
pre.source { background: #f8f9fb; border: 1px solid var(--line); border-radius: 6px; padding: 12px; overflow: auto; max-height: 520px; white-space: pre; tab-size: 4; margin: 6px 0 16px; }
details > summary { cursor: pointer; }
.file-head { display: flex; justify-content: space-between; gap: 10px; font-weight: 600; }
form.fn { border: 1px solid var(--line); border-radius: 6px; padding: 12px 14px; margin-bottom: 10px; }
form.fn label { display: block; margin: 4px 0 8px; font-size: 13px; color: var(--muted); }
form.fn label input { display: block; width: 100%; margin-top: 3px; font-family: var(--mono); font-size: 13px; }
.fn-result { display: block; margin-top: 8px; font-size: 14px; word-break: break-all; }
.fn-result:empty { display: none; }
.fn-result.ok { color: var(--fg); }
.fn-result.err { color: var(--err); }
.fn-result.busy { color: var(--muted); }
.fn-result .type { color: var(--muted); font-style: italic; }
.fn-result code { font-weight: 600; }
.notice { padding: 10px 14px; border-radius: 6px; margin: 10px 0; }
.notice.warn { background: var(--warnbg); color: var(--warn); }
.notice.err { background: var(--errbg); color: var(--err); }
.notice.ok { background: var(--okbg); color: var(--ok); }
.notice.info { background: #e8eefc; color: #1d3f8f; }
ol.steps { display: flex; gap: 0; list-style: none; padding: 0; margin: 18px 0; counter-reset: step; }
ol.steps li { flex: 1; text-align: center; position: relative; color: var(--muted); padding-top: 34px; }
ol.steps li::before { counter-increment: step; content: counter(step); position: absolute; top: 0; left: 50%; transform: translateX(-50%); width: 26px; height: 26px; line-height: 26px; border-radius: 50%; background: var(--line); color: var(--fg); font-size: 13px; }
ol.steps li.done::before { content: "\\2713"; background: var(--ok); color: #fff; }
ol.steps li.current { color: var(--fg); font-weight: 600; }
ol.steps li.current::before { background: var(--accent); color: #fff; }
ol.steps li.failed::before { content: "\\2717"; background: var(--err); color: #fff; }
.pager { display: flex; gap: 14px; align-items: center; margin: 12px 0; }
.hero { padding: 22px 24px; }
.hero p { max-width: 760px; }
.hero form { display: flex; gap: 8px; margin-top: 12px; }
.hero form input { flex: 1; max-width: 620px; }
.links { display: flex; flex-wrap: wrap; gap: 18px; }
`;

export const EXPLORER_JS = `(function () {
  'use strict';
  function $(sel, root) { return (root || document).querySelector(sel); }
  function $$(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }

  function showTab(id) {
    var panels = $$('.tab-panel');
    if (!panels.length) return;
    if (!panels.some(function (p) { return p.id === id; })) id = panels[0].id;
    panels.forEach(function (p) { p.hidden = p.id !== id; });
    $$('.tabs a').forEach(function (a) {
      a.setAttribute('aria-selected', a.getAttribute('href') === '#' + id ? 'true' : 'false');
    });
  }
  $$('.tabs a').forEach(function (a) {
    a.addEventListener('click', function (e) {
      e.preventDefault();
      var id = a.getAttribute('href').slice(1);
      history.replaceState(null, '', '#' + id);
      showTab(id);
    });
  });
  showTab(location.hash.slice(1));

  function argValue(input) {
    var type = input.getAttribute('data-type') || '';
    var text = input.value;
    if (/\\]$/.test(type) || /^tuple/.test(type)) {
      try { return JSON.parse(text); } catch (e) { return text; }
    }
    return text;
  }
  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function say(out, cls, text) { out.className = 'fn-result ' + cls; out.textContent = text; }
  function post(path, body) {
    return fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
      .then(function (res) {
        return res.json().catch(function () { return { error: 'Unexpected answer (HTTP ' + res.status + ')' }; })
          .then(function (json) {
            if (!res.ok || json.error) throw new Error(json.error || 'HTTP ' + res.status);
            return json;
          });
      });
  }
  function copyButton(text) {
    var b = el('button', 'secondary', 'Copy');
    b.type = 'button';
    b.addEventListener('click', function () {
      if (navigator.clipboard) navigator.clipboard.writeText(text).then(function () { b.textContent = 'Copied'; });
    });
    return b;
  }
  function showOutputs(out, result) {
    out.className = 'fn-result ok';
    out.textContent = '';
    if (!result.outputs.length) { out.textContent = 'The call succeeded (no return values).'; return; }
    result.outputs.forEach(function (o) {
      var line = el('div', 'output');
      line.appendChild(el('span', 'type', (o.name ? o.name + ' ' : '') + o.type));
      line.appendChild(document.createTextNode(' '));
      line.appendChild(el('code', 'value', typeof o.value === 'string' ? o.value : JSON.stringify(o.value)));
      out.appendChild(line);
    });
  }
  function showCalldata(out, enc) {
    out.className = 'fn-result ok';
    out.textContent = '';
    out.appendChild(el('div', 'muted', 'No wallet in this browser. Send this transaction with your own tool:'));
    out.appendChild(el('div', '', 'to: ' + enc.to));
    if (enc.value !== '0x0') out.appendChild(el('div', '', 'value (wei): ' + enc.valueWei));
    var data = el('code', 'calldata', enc.data);
    var line = el('div', '', 'data: ');
    line.appendChild(data);
    out.appendChild(line);
    out.appendChild(copyButton(enc.data));
  }

  var main = $('main [data-address]');
  $$('form.fn').forEach(function (form) {
    form.addEventListener('submit', function (e) {
      e.preventDefault();
      if (!main) return;
      var out = $('.fn-result', form);
      var base = '/address/' + main.getAttribute('data-address');
      var body = {
        function: form.getAttribute('data-signature'),
        args: $$('input[data-arg]', form).map(argValue),
        asProxy: form.getAttribute('data-proxy') === '1'
      };
      say(out, 'busy', 'Working\\u2026');
      var done;
      if (form.getAttribute('data-kind') === 'read') {
        done = post(base + '/read', body).then(function (r) { showOutputs(out, r); });
      } else {
        var value = $('input[data-value]', form);
        if (value) body.value = value.value;
        done = post(base + '/encode', body).then(function (enc) {
          var wallet = window.ethereum;
          if (!wallet || typeof wallet.request !== 'function') { showCalldata(out, enc); return; }
          return wallet.request({ method: 'eth_requestAccounts' }).then(function (accounts) {
            var tx = { from: accounts[0], to: enc.to, data: enc.data };
            if (enc.value !== '0x0') tx.value = enc.value;
            return wallet.request({ method: 'eth_sendTransaction', params: [tx] });
          }).then(function (hash) { say(out, 'ok', 'Transaction sent: ' + hash); });
        });
      }
      done.catch(function (err) { say(out, 'err', 'Error: ' + (err && err.message ? err.message : String(err))); });
    });
  });
})();
`;
