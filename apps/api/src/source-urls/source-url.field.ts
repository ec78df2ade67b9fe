import { z } from 'zod';
import { MAX_CALLER_URL_LENGTH } from '../outbound/caller-url.js';
import { CONFIGURED } from '../http-kit/configured-figures.js';

/**
 * The `source_url` field: where the service fetches the file instead of receiving it. Its shape is checked here; the
 * outbound guard's rules (checkedCallerUrl, then guardedFetch) decide whether it may be reached.
 */
export const sourceUrlField = (limit: string) =>
  z
    .string()
    .min(1)
    .max(MAX_CALLER_URL_LENGTH)
    .describe(
      `The file's http or https URL (at most ${MAX_CALLER_URL_LENGTH} characters), fetched by this service instead of an upload: ` +
        `no credentials in it, port 80 or 443, a public address (redirects followed up to 5, each checked the same). ` +
        `The file: at most ${limit}, decoded; fetched within ${CONFIGURED.sourceUrlTimeLimits}. ` +
        'A refused URL or address answers source_url_refused, a failed fetch source_url_failed (error.details.reason says why; ' +
        'error.details.status carries an error status the server answered), a file over the limit 413; nothing is charged for any of them.',
    );
