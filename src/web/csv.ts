/**
 * CSV per RFC 4180 (every field quoted, quotes doubled, CRLF rows), with spreadsheet
 * formula injection defused: a field that a spreadsheet would read as a formula gets a
 * leading apostrophe, which spreadsheets show as text.
 */

const FORMULA_START = /^[=+\-@\t\r]/;

/** One field, quoted and defused. */
export function csvField(value: string | number): string {
  let text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

/** One row, CRLF-terminated. */
export function csvRow(fields: readonly (string | number)[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}
