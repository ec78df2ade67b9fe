const KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)*$/;

/**
 * Refuses keys that are not plain relative paths ("..", ".", absolute, control characters), so every driver
 * accepts the same keys: a key that works on S3 never fails on the local disk, or escapes its directory.
 */
export function assertStorageKey(key: string): void {
  if (!KEY.test(key) || key.split('/').some((part) => part === '..' || part === '.')) throw new Error(`invalid storage key ${JSON.stringify(key)}`);
}
