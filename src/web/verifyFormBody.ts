/**
 * Reading a Verify & Publish form post (multipart/form-data) as it arrives. The page sends the
 * API key first (browsers send fields in the page's order): it is checked as soon as it
 * arrives, and it decides how much of the rest is read. A form's first OPEN_FORM_BYTES are read
 * for anyone, so that a refusal can show the form again as it was sent; past them, only for a
 * valid key. A client that sends the key after the sources is read up to OPEN_FORM_BYTES all
 * the same, and refused there unless the key came within them. At most MAX_FORM_ENTRIES fields
 * and files are read; reading stops at the first past any limit.
 */
import type { Readable } from 'node:stream';
import { readMultipart } from '../limits/multipartBody.js';
import type { FormEntry, FormField } from './verifyForm.js';

/** Fields and files in one form post: the form's own fields, libraries, and up to 300 files. */
export const MAX_FORM_ENTRIES = 400;
/** Bytes of a form read whatever its key: more than any form without uploads. */
export const OPEN_FORM_BYTES = 1024 * 1024;
/** Past a refusal the rest of a form is read and dropped, up to this multiple of the body limit in all. */
const DRAIN_FACTOR = 4;

/** Why reading stopped early: the field the page shows it at, the text, the HTTP status. */
export interface FormRefusal {
  field: Extract<FormField, 'apiKey' | 'form'>;
  message: string;
  status: number;
}

/** A form post as read: its entries in order, the refusal of its API key if it had a wrong one, and why reading stopped if it stopped early. */
export class VerifyFormBody {
  constructor(
    readonly entries: FormEntry[],
    readonly keyRefusal: string | null,
    readonly refusal: FormRefusal | null,
  ) {}
}

export interface VerifyFormBodyOptions {
  contentType: string;
  /** Bytes a form may have at most. */
  bodyLimit: number;
  /** Null when the key may submit, else the text to show. */
  checkApiKey(apiKey: string): Promise<string | null>;
}

const MB = 1024 * 1024;

/**
 * Reads a form post. Every problem of the form (too many entries, too large, unreadable, no
 * valid key for a large form) is a refusal; it rejects only when the client's connection fails
 * (code ECONNRESET) or the key cannot be checked.
 */
export async function readVerifyFormBody(payload: Readable, options: VerifyFormBodyOptions): Promise<VerifyFormBody> {
  // undefined until a key arrives; then null for a valid one, or the text for a wrong one.
  let keyRefusal: string | null | undefined;
  const read = await readMultipart(payload, {
    contentType: options.contentType,
    maxBytes: options.bodyLimit,
    maxParts: MAX_FORM_ENTRIES,
    drainBytes: options.bodyLimit * DRAIN_FACTOR,
    onPart: async (part) => {
      if (part.name !== 'apikey' || !('value' in part) || part.value.trim() === '') return;
      keyRefusal = await options.checkApiKey(part.value.trim());
    },
    openBytes: OPEN_FORM_BYTES,
    admit: async () => {
      const beyond = `the sources of a form over ${OPEN_FORM_BYTES / MB} MB are read only for a valid API key, sent before them (the page sends it first); they were not read`;
      if (keyRefusal === undefined) return `Enter your API key: ${beyond}`;
      return keyRefusal === null ? null : `${keyRefusal}: ${beyond}`;
    },
  });
  const key = keyRefusal ?? null;
  if (read.ok) return new VerifyFormBody(read.parts, key, null);
  const refusal: FormRefusal =
    read.problem === 'refused'
      ? { field: 'apiKey', message: read.refusal ?? '', status: 400 }
      : read.problem === 'too_many_parts'
        ? { field: 'form', message: `The form has too many fields or files (at most ${MAX_FORM_ENTRIES}); it was not read past them`, status: 400 }
        : read.problem === 'too_large'
          ? { field: 'form', message: `The form is too large (at most ${options.bodyLimit} bytes)`, status: 413 }
          : { field: 'form', message: 'The form could not be read (it is not a complete multipart/form-data body)', status: 400 };
  return new VerifyFormBody(read.parts, key, refusal);
}
