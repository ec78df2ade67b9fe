/**
 * A typed multipart body as FormData: Blob values become file parts named `filename`, a list of Blobs one file part
 * each (repeated under the same field, in order) named by `partNames`, the others text parts, in the body's key order
 * (the service reads the fields before the file, so put the file last).
 */
export function multipartForm(body: object, filename: string, partNames: readonly string[] = []): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(body)) {
    if (value instanceof Blob) form.append(name, value, filename);
    else if (Array.isArray(value) && value.every((part) => part instanceof Blob)) value.forEach((part: Blob, index) => form.append(name, part, partNames[index] ?? filename));
    else form.append(name, String(value));
  }
  return form;
}
