import { z } from 'zod';
import { MAX_CALLER_URL_LENGTH } from '../outbound/caller-url.js';

/** The optional `webhook_url` of a conversion request, as both APIs document it. */
export const WebhookUrlField = z
  .string()
  .max(MAX_CALLER_URL_LENGTH)
  .optional()
  .describe(
    'Optional: an http(s) URL the service POSTs a signed event to when the job ends (done or failed), retried with backoff on 5xx or no answer; ' +
      'see docs/webhooks.md. It must reach a public address (private, loopback and link-local addresses are refused with 422 before any charge); ' +
      'redirects are not followed.',
  );
