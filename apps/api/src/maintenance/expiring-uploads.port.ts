/**
 * Uploads kept apart from jobs (the key API's), which the purge removes with their files once their retention is over.
 * Maintenance owns this port; the key API provides it under EXPIRING_UPLOADS, bound to the worker by the composition
 * root (app.module.ts), so the worker never imports an API.
 */
export interface ExpiringUploads {
  /** Removes every upload past its retention; returns how many. */
  purgeExpired(): Promise<number>;
}

/** The injection token of the ExpiringUploads port. */
export const EXPIRING_UPLOADS = Symbol('ExpiringUploads');
