import { z } from 'zod';

/** C0 and C1 control characters and DEL: never part of a real file name, and NUL breaks PostgreSQL text. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/g;

/** A client's file name as a hint: without control characters or directories, at most 255 characters. */
export function cleanFileName(name: string): string {
  return (name.split(/[\\/]/).pop() ?? '').replace(CONTROL_CHARACTERS, '').trim().slice(0, 255);
}

/** A file name field: 1..255 characters, refused (not cleaned) when it holds control characters. */
export const fileNameField = () =>
  z
    .string()
    .min(1)
    .max(255)
    // eslint-disable-next-line no-control-regex -- refusing control characters is the point
    .regex(/^[^\u0000-\u001f\u007f-\u009f]*$/, 'must not contain control characters (such as NUL or a line break)');
