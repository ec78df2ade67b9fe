import { isTargetFormat, TARGET_FORMATS, type TargetFormat } from '@fileshift/sdk';

/** A target_format as the SDK types it, or why it is none: refused before any approval is asked or anything paid. */
export function checkedTargetFormat(name: string): { ok: true; format: TargetFormat } | { ok: false; message: string } {
  const format = name.trim().replace(/^\./, '').toLowerCase();
  if (isTargetFormat(format)) return { ok: true, format };
  return {
    ok: false,
    message: `"${name}" is not a format Fileshift converts to. Nothing was paid. Call list_formats to see what a format converts to; the known targets are ${TARGET_FORMATS.join(', ')}.`,
  };
}
