/**
 * A typed multipart body as FormData: Blob values become file parts named `filename`, the others text
 * parts, in the body's key order (the service reads the fields before the file, so put the file last).
 */
export function multipartForm(body: object, filename: string): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(body)) {
    if (value instanceof Blob) form.append(name, value, filename);
    else form.append(name, String(value));
  }
  return form;
}

