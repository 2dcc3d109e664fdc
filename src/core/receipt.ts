import { randomString } from './random.js';

/** Etherscan's GUID for a submission: 50 lower-case letters and digits. */
export const RECEIPT_LENGTH = 50;
const RECEIPT_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** What a receipt looks like; anything else cannot name a job. */
export const RECEIPT_PATTERN = /^[a-z0-9]{50}$/;

/** True when `text` has the form of a receipt. */
export function isReceipt(text: string | null | undefined): boolean {
  return typeof text === 'string' && RECEIPT_PATTERN.test(text);
}

/** A fresh receipt: 50 crypto-random lower-case letters and digits. */
export function newReceipt(): string {
  return randomString(RECEIPT_ALPHABET, RECEIPT_LENGTH);
}
