// @ts-check
/**
 * The explorer's only script: tabs, and the Read/Write forms of contract pages. Served as a
 * file of its own (never inline) so the Content-Security-Policy can forbid inline code.
 */
(() => {
  // A classic script (not a module): strict by choice.
  'use strict';

  /**
   * @param {string} sel
   * @param {ParentNode} [root]
   * @returns {HTMLElement | null}
   */
  function $(sel, root) {
    return (root || document).querySelector(sel);
  }
  /**
   * @param {string} sel
   * @param {ParentNode} [root]
   * @returns {HTMLElement[]}
   */
  function $$(sel, root) {
    return Array.prototype.slice.call((root || document).querySelectorAll(sel));
  }

  /** @param {string} id */
  function showTab(id) {
    var panels = $$('.tab-panel');
    if (!panels.length) return;
    if (!panels.some((p) => p.id === id)) id = panels[0].id;
    panels.forEach((p) => {
      p.hidden = p.id !== id;
    });
    $$('.tabs a').forEach((a) => {
      a.setAttribute('aria-selected', a.getAttribute('href') === `#${id}` ? 'true' : 'false');
    });
  }
  $$('.tabs a').forEach((a) => {
    a.addEventListener('click', (e) => {
      e.preventDefault();
      var id = (a.getAttribute('href') || '#').slice(1);
      history.replaceState(null, '', `#${id}`);
      showTab(id);
    });
  });
  /**
   * The tab a hash names: a tab's own id, or the tab holding the element it names (a line of
   * code `#f2-L7` is in the Code tab). Followed on load and whenever the hash changes (links,
   * back and forward).
   */
  function followHash() {
    var id = location.hash.slice(1);
    var target = id ? document.getElementById(id) : null;
    var panel = target ? target.closest('.tab-panel') : null;
    showTab(panel ? panel.id : id);
    // A folded file holding the target opens.
    var folded = target ? target.closest('details') : null;
    if (folded && !folded.open) folded.open = true;
  }
  followHash();
  window.addEventListener('hashchange', () => {
    followHash();
    showLine();
    readArgumentless();
  });

  /**
   * An argument as the server wants it: arrays and tuples as JSON, everything else as typed.
   * @param {HTMLElement} input
   * @returns {unknown}
   */
  function argValue(input) {
    var type = input.getAttribute('data-type') || '';
    var text = /** @type {HTMLInputElement} */ (input).value;
    if (/\]$/.test(type) || /^tuple/.test(type)) {
      try {
        return JSON.parse(text);
      } catch {
        return text;
      }
    }
    return text;
  }
  /**
   * @param {string} tag
   * @param {string} [cls]
   * @param {string} [text]
   * @returns {HTMLElement}
   */
  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }
  /**
   * @param {HTMLElement} out
   * @param {string} cls
   * @param {string} text
   */
  function say(out, cls, text) {
    out.className = `fn-result ${cls}`;
    out.textContent = text;
  }
  /**
   * POSTs JSON; resolves with the answer, rejects with the server's error text.
   * @param {string} path
   * @param {object} body
   * @returns {Promise<any>}
   */
  function post(path, body) {
    return fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((res) =>
      res
        .json()
        .catch(() => ({ error: `Unexpected answer (HTTP ${res.status})` }))
        .then((json) => {
          if (!res.ok || json.error) throw new Error(json.error || `HTTP ${res.status}`);
          return json;
        }),
    );
  }
  /** @param {string} text */
  function copyButton(text) {
    var b = /** @type {HTMLButtonElement} */ (el('button', 'secondary', 'Copy'));
    b.type = 'button';
    b.addEventListener('click', () => {
      if (navigator.clipboard)
        navigator.clipboard.writeText(text).then(() => {
          b.textContent = 'Copied';
        });
    });
    return b;
  }
  /**
   * @param {HTMLElement} out
   * @param {{ outputs: { name: string, type: string, value: unknown }[] }} result
   */
  function showOutputs(out, result) {
    out.className = 'fn-result ok';
    out.textContent = '';
    if (!result.outputs.length) {
      out.textContent = 'The call succeeded (no return values).';
      return;
    }
    result.outputs.forEach((o) => {
      var line = el('div', 'output');
      line.appendChild(el('span', 'type', (o.name ? `${o.name} ` : '') + o.type));
      line.appendChild(document.createTextNode(' '));
      line.appendChild(el('code', 'value', typeof o.value === 'string' ? o.value : JSON.stringify(o.value)));
      out.appendChild(line);
    });
  }
  /**
   * @param {HTMLElement} out
   * @param {{ to: string, data: string, value: string, valueWei: string }} enc
   */
  function showCalldata(out, enc) {
    out.className = 'fn-result ok';
    out.textContent = '';
    out.appendChild(el('div', 'muted', 'No wallet in this browser. Send this transaction with your own tool:'));
    out.appendChild(el('div', '', `to: ${enc.to}`));
    if (enc.value !== '0x0') out.appendChild(el('div', '', `value (wei): ${enc.valueWei}`));
    var data = el('code', 'calldata', enc.data);
    var line = el('div', '', 'data: ');
    line.appendChild(data);
    out.appendChild(line);
    out.appendChild(copyButton(enc.data));
  }

  var main = $('main [data-address]');
  /** Read functions without arguments answered at once, as many as this, on the visible tab. */
  var AUTO_READS = 20;
  var AUTO_READ_MS = 8000;
  /** @type {Set<HTMLElement>} */
  var autoRead = new Set();
  /**
   * The Read tabs show the values of their argument-less functions at once (like Etherscan):
   * at most AUTO_READS calls per tab, one after another, and none started after AUTO_READ_MS.
   */
  function readArgumentless() {
    var started = Date.now();
    var forms = $$('.tab-panel:not([hidden]) form.fn[data-kind="read"]').filter(
      (form) => !autoRead.has(form) && !form.querySelector('input[data-arg]') && !form.querySelector('input[data-value]'),
    );
    forms = forms.slice(0, AUTO_READS);
    forms.forEach((form) => {
      autoRead.add(form);
    });
    /** @param {number} i */
    function next(i) {
      if (i >= forms.length || Date.now() - started > AUTO_READ_MS) return;
      var form = forms[i];
      form.dispatchEvent(new Event('submit', { cancelable: true }));
      var out = $('.fn-result', form);
      var wait = Date.now();
      var poll = window.setInterval(() => {
        if (!out?.classList.contains('busy') || Date.now() - wait > 3000) {
          window.clearInterval(poll);
          next(i + 1);
        }
      }, 50);
    }
    next(0);
  }
  $$('form.fn').forEach((form) => {
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      var out = $('.fn-result', form);
      if (!main || !out) return;
      var result = out;
      var base = `/address/${main.getAttribute('data-address')}`;
      /** @type {{ function: string | null, args: unknown[], asProxy: boolean, value?: string }} */
      var body = {
        function: form.getAttribute('data-signature'),
        args: $$('input[data-arg]', form).map(argValue),
        asProxy: form.getAttribute('data-proxy') === '1',
      };
      say(result, 'busy', 'Working\u2026');
      var done;
      if (form.getAttribute('data-kind') === 'read') {
        done = post(`${base}/read`, body).then((r) => {
          showOutputs(result, r);
        });
      } else {
        var value = /** @type {HTMLInputElement | null} */ ($('input[data-value]', form));
        if (value) body.value = value.value;
        done = post(`${base}/encode`, body).then((enc) => {
          /** @type {{ request?: (args: { method: string, params?: unknown[] }) => Promise<any> } | undefined} */
          var wallet = /** @type {any} */ (window).ethereum;
          var maybeRequest = wallet?.request;
          if (typeof maybeRequest !== 'function') {
            showCalldata(result, enc);
            return;
          }
          var request = maybeRequest.bind(wallet);
          return request({ method: 'eth_requestAccounts' })
            .then((accounts) => {
              /** @type {{ from: string, to: string, data: string, value?: string }} */
              var tx = { from: accounts[0], to: enc.to, data: enc.data };
              if (enc.value !== '0x0') tx.value = enc.value;
              return request({ method: 'eth_sendTransaction', params: [tx] });
            })
            .then((hash) => {
              say(result, 'ok', `Transaction sent: ${hash}`);
            });
        });
      }
      done.catch((err) => {
        say(result, 'err', `Error: ${err?.message ? err.message : String(err)}`);
      });
    });
  });
  /**
   * A pending receipt page follows `/receipt/<guid>/events` (server-sent events): each new state
   * re-renders the page from the server, and the stream ends with the verdict.
   */
  function followReceipt() {
    var el = $('[data-receipt-events]');
    if (!el || typeof EventSource === 'undefined') return;
    var url = el.getAttribute('data-receipt-events') || '';
    var shown = el.getAttribute('data-receipt-state') || '';
    var source = new EventSource(url);
    source.addEventListener('state', (event) => {
      /** @type {{ state: string, done: boolean }} */
      var data = JSON.parse(/** @type {MessageEvent} */ (event).data);
      if (data.done) source.close();
      if (data.state !== shown) window.location.reload();
    });
    source.onerror = () => {
      // The stream ended or the service went away: fall back to reloading now and then.
      source.close();
      window.setTimeout(() => {
        window.location.reload();
      }, 3000);
    };
  }
  followReceipt();
  readArgumentless();
  $$('.tabs a').forEach((a) => {
    a.addEventListener('click', () => {
      window.setTimeout(readArgumentless, 0);
    });
  });
  /**
   * The Verify & Publish form: shows only the chosen format's fields, lists the contracts found
   * in the chosen sources, reads a build-info file's compiler, and remembers the API key when
   * asked. The form works without any of this (a plain multipart POST).
   */
  function enhanceVerifyForm() {
    var found = /** @type {HTMLFormElement | null} */ ($('form[data-verify-form]'));
    if (!found) return;
    var form = found;
    var KEY = 'solproof.apiKey';
    var contractList = $('#contract-list') || document.createElement('datalist');
    var nameInput = /** @type {HTMLInputElement} */ ($('#contractname'));
    var compilerInput = /** @type {HTMLInputElement} */ ($('#compiler'));
    var keyInput = /** @type {HTMLInputElement} */ ($('#apikey'));
    var remember = /** @type {HTMLInputElement} */ ($('#remember-key'));
    $$('.js-only', form).forEach((el) => {
      el.hidden = false;
    });

    function format() {
      var checked = /** @type {HTMLInputElement | null} */ (form.querySelector('input[name=format]:checked'));
      return checked ? checked.value : 'single';
    }
    function showFormat() {
      var f = format();
      $$('.format-panel', form).forEach((p) => {
        p.hidden = p.getAttribute('data-format') !== f;
      });
    }
    $$('input[name=format]', form).forEach((r) => {
      r.addEventListener('change', () => {
        showFormat();
        refreshContracts();
      });
    });
    showFormat();

    /** @param {Record<string, string>} sources @param {boolean} qualified */
    function declared(sources, qualified) {
      var names = /** @type {string[]} */ ([]);
      var re = /^\s*(?:abstract\s+)?(contract|library)\s+([A-Za-z_$][A-Za-z0-9_$]*)/gm;
      Object.keys(sources).forEach((path) => {
        var text = sources[path].replace(/\/\*[\s\S]*?\*\//g, '');
        var m;
        re.lastIndex = 0;
        while ((m = re.exec(text))) {
          var n = qualified ? `${path}:${m[2]}` : m[2];
          if (names.indexOf(n) < 0) names.push(n);
        }
      });
      return names;
    }
    var typesInput = /** @type {HTMLInputElement | null} */ ($('#constructortypes'));
    /** @type {Record<string, string>} */
    var lastSources = {};
    /**
     * The constructor's parameter list of contract `name` in `sources` ('' when it has none).
     * @param {Record<string, string>} sources @param {string} name
     */
    function constructorParams(sources, name) {
      var bare = name.split(':').pop() || '';
      var found = '';
      Object.keys(sources).forEach((path) => {
        var text = sources[path].replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/[^\n]*/g, '');
        var start = text.search(new RegExp(`\\bcontract\\s+${bare.replace(/\$/g, '\\$')}\\b`));
        if (start < 0 || found) return;
        var rest = text.slice(start + 1);
        var next = rest.search(/\b(contract|library|interface)\s+[A-Za-z_$]/);
        var body = next < 0 ? rest : rest.slice(0, next);
        var m = /\bconstructor\s*\(([^)]*)\)/.exec(body);
        if (m) found = m[1].replace(/\s+/g, ' ').trim();
      });
      return found;
    }
    var licenseSelect = /** @type {HTMLSelectElement | null} */ ($('#license'));
    var licenseNote = $('#license-note');
    /** @type {Record<string, string>} */
    var licenseNames = JSON.parse(licenseNote?.getAttribute('data-license-names') || '{}');
    /** @type {Record<string, number>} */
    var spdxCodes = JSON.parse(licenseNote?.getAttribute('data-spdx-codes') || '{}');
    /** The licence code the contract's file names in its SPDX line; 0 when none the list knows. */
    function sourceLicense() {
      var name = nameInput.value;
      var path = name.indexOf(':') > 0 ? name.slice(0, name.lastIndexOf(':')) : '';
      var text = lastSources[path] || lastSources['source.sol'] || '';
      if (!text && Object.keys(lastSources).length === 1) text = lastSources[Object.keys(lastSources)[0]];
      var m = /SPDX-License-Identifier:\s*([A-Za-z0-9.+-]+)/.exec(text);
      return m ? spdxCodes[m[1]] || 0 : 0;
    }
    /** Says what the licence field will publish: the source's SPDX line wins over a choice. */
    function showLicense() {
      if (!licenseSelect || !licenseNote) return;
      var fromSource = sourceLicense();
      var chosen = Number(licenseSelect.value) || 0;
      var name = (/** @type {number} */ code) => licenseNames[String(code)] || 'None';
      if (!fromSource) {
        licenseNote.textContent = chosen
          ? `Published as ${name(chosen)} (the source names no licence Etherscan lists).`
          : 'Published with the licence the contract file names in its SPDX-License-Identifier line (None without one).';
      } else if (chosen && chosen !== fromSource) {
        licenseNote.textContent = `The source's SPDX line names ${name(fromSource)}, not ${name(chosen)}: the contract is published as ${name(fromSource)}.`;
      } else {
        licenseNote.textContent = `The source's SPDX line names ${name(fromSource)}: published as ${name(fromSource)}.`;
      }
    }
    if (licenseSelect) licenseSelect.addEventListener('change', showLicense);
    nameInput.addEventListener('change', showLicense);

    function fillConstructorTypes() {
      if (!typesInput || typesInput.value) return;
      var name = nameInput.value;
      if (name) typesInput.value = constructorParams(lastSources, name);
    }
    nameInput.addEventListener('change', fillConstructorTypes);

    /** @param {string[]} names */
    function offer(names) {
      var list = contractList;
      list.textContent = '';
      names.slice(0, 500).forEach((n) => {
        var o = document.createElement('option');
        o.value = n;
        list.appendChild(o);
      });
      if (names.length === 1 && !nameInput.value) nameInput.value = names[0];
      fillConstructorTypes();
      showLicense();
    }
    /** @param {File} file @returns {Promise<string>} */
    function readFile(file) {
      return file.text();
    }

    function refreshContracts() {
      var f = format();
      if (f === 'single') {
        var upload = /** @type {HTMLInputElement} */ ($('#sourcefile'));
        var file = upload.files?.[0];
        var pasted = /** @type {HTMLTextAreaElement} */ ($('#source')).value;
        (file ? readFile(file) : Promise.resolve(pasted)).then((text) => {
          lastSources = { 'source.sol': text };
          offer(declared(lastSources, false));
        });
      } else if (f === 'files') {
        var chosen = /** @type {File[]} */ ([]);
        ['#sourcefiles', '#sourcefolder'].forEach((sel) => {
          var input = /** @type {HTMLInputElement} */ ($(sel));
          Array.prototype.forEach.call(input.files || [], (file) => {
            if (/\.sol$/i.test(file.name)) chosen.push(file);
          });
        });
        Promise.all(chosen.map(readFile)).then((texts) => {
          /** @type {Record<string, string>} */
          var sources = {};
          chosen.forEach((file, i) => {
            sources[file.webkitRelativePath || file.name] = texts[i];
          });
          lastSources = sources;
          offer(declared(sources, true));
        });
      } else {
        var jsonUpload = /** @type {HTMLInputElement} */ ($('#jsonfile'));
        var jsonFile = jsonUpload.files?.[0];
        var jsonText = /** @type {HTMLTextAreaElement} */ ($('#standardjson')).value;
        (jsonFile ? readFile(jsonFile) : Promise.resolve(jsonText)).then((text) => {
          if (!text.trim()) return;
          var doc;
          try {
            doc = JSON.parse(text);
          } catch {
            return;
          }
          var input = doc && typeof doc.input === 'object' ? doc.input : doc;
          if (doc && typeof doc.solcLongVersion === 'string' && !compilerInput.value) compilerInput.value = `v${doc.solcLongVersion.replace(/^v/, '')}`;
          /** @type {Record<string, string>} */
          var sources = {};
          Object.keys(input?.sources || {}).forEach((path) => {
            sources[path] = String(input.sources[path].content || '');
          });
          lastSources = sources;
          offer(declared(sources, true));
        });
      }
    }
    ['#source', '#standardjson'].forEach((sel) => {
      var el = $(sel);
      if (el) el.addEventListener('change', refreshContracts);
    });
    ['#sourcefile', '#sourcefiles', '#sourcefolder', '#jsonfile'].forEach((sel) => {
      var el = $(sel);
      if (el) el.addEventListener('change', refreshContracts);
    });

    // The key is kept only when the user asks, and only in this browser.
    var stored = null;
    try {
      stored = window.localStorage.getItem(KEY);
    } catch {
      stored = null;
    }
    if (stored) {
      remember.checked = true;
      if (!keyInput.value) keyInput.value = stored;
    }
    form.addEventListener('submit', () => {
      try {
        if (remember.checked && keyInput.value) window.localStorage.setItem(KEY, keyInput.value);
        else window.localStorage.removeItem(KEY);
      } catch {
        /* storage refused: nothing is remembered */
      }
    });
  }
  enhanceVerifyForm();
  /** Copy buttons (`data-copy` names the element whose text is copied); shown only with scripts. */
  $$('[data-copy]').forEach((button) => {
    button.hidden = false;
    button.addEventListener('click', () => {
      var target = $(button.getAttribute('data-copy') || '');
      if (!target) return;
      var label = button.textContent;
      var done = (/** @type {string} */ text) => {
        button.textContent = text;
        window.setTimeout(() => {
          button.textContent = label;
        }, 1500);
      };
      navigator.clipboard.writeText(target.textContent || '').then(
        () => {
          done('Copied');
        },
        () => {
          done('Copy failed');
        },
      );
    });
  });
  /** A link to a line (`#f1-L12`) of a file shown on the page scrolls the line into view in the code tab. */
  function showLine() {
    var m = /^#(f\d+-L\d+)$/.exec(location.hash);
    if (!m) return;
    var line = document.getElementById(m[1]);
    if (line) line.scrollIntoView({ block: 'center' });
  }
  showLine();
})();
