/** The Etherscan texts (kept in core, where the job handlers read them too). */
export { TEXT } from '../core/texts.js';
