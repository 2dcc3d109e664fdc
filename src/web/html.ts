/**
 * HTML building with escaping by default: every value interpolated into `html` is escaped
 * by `escapeHtml` unless it is itself markup built by `html` (or, for constant markup,
 * `trusted`). Pages never concatenate strings into markup by hand.
 */

/** Markup that is already safe to emit. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/**
 * The one escape function for text placed in element content or in a quoted attribute.
 * Quotes are escaped too, so the same text is safe in either place.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => ENTITIES[c]!);
}

export type HtmlValue = Html | string | number | bigint | boolean | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value instanceof Html) return value.value;
  if (value === null || value === undefined || value === false || value === true) return '';
  if (Array.isArray(value)) return value.map(render).join('');
  // Digits, a sign, a point, an exponent or Infinity/NaN: nothing to escape (pages number their lines by the thousand).
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  return escapeHtml(String(value));
}

/** Tagged template: the literal parts are markup, every `${value}` is escaped (arrays joined). */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]!;
  return new Html(out);
}

/** Wraps constant markup written in this folder (never data from the store or a request). */
export function trusted(markup: string): Html {
  return new Html(markup);
}
