export { detectFileAtPath } from './detect-file-at-path.js';
export { fileFromPath } from './file-from-path.js';
export { saveFile } from './save-file.js';
