/**
 * Whether a text is Vyper rather than Solidity, for the refusal of Vyper sources sent as
 * Solidity (and a solc version named for them). Only unmistakable marks count: Vyper's version
 * pragma, or a decorated `def`; and nothing of Solidity's (`pragma solidity`, a contract,
 * library or interface body, a `function`).
 */
const VYPER_MARKS = [
  /^[ \t]*#[ \t]*(?:@version|pragma[ \t]+version)\b/m,
  /^[ \t]*@(?:external|internal|deploy|view|pure|payable|nonpayable)\b[^\n]*\n(?:[ \t]*@\w+[^\n]*\n)*[ \t]*def[ \t]+\w+[ \t]*\(/m,
];
const SOLIDITY_MARKS = [/\bpragma[ \t]+solidity\b/, /\b(?:contract|library|interface|abstract[ \t]+contract)[ \t]+\w+[^;{]*\{/, /\bfunction[ \t]+\w*[ \t]*\(/];

export function looksLikeVyperSource(text: string): boolean {
  const head = text.slice(0, 200_000);
  return VYPER_MARKS.some((re) => re.test(head)) && !SOLIDITY_MARKS.some((re) => re.test(head));
}
