import type { HostTaskDeclaration } from '../platform/node-host/node-host.protocol.js';
import { CALIBRE_HOST_TASKS } from './calibre/calibre.host-tasks.js';
import { DATA_HOST_TASKS } from './data/data.host-tasks.js';
import { EXIFTOOL_HOST_TASKS } from './exiftool/exiftool.host-tasks.js';
import { IMG2PDF_HOST_TASKS } from './img2pdf/img2pdf.host-tasks.js';
import { LIBREOFFICE_HOST_TASKS } from './libreoffice/libreoffice.host-tasks.js';
import { OCR_HOST_TASKS } from './ocr/ocr.host-tasks.js';
import { OFFICE_MARKDOWN_HOST_TASKS } from './office-markdown/office-markdown.host-tasks.js';
import { POPPLER_HOST_TASKS } from './poppler/poppler.host-tasks.js';
import { SHARP_HOST_TASKS } from './sharp/sharp.host-tasks.js';

/**
 * Every task the engines of this build run in the Node host — the one list an engine's host tasks are added to. It is
 * the engine registry's (engines.ts) counterpart for the host, kept apart so that the worker, which imports that one,
 * never reaches the code these load (the readers of uploads). Each task's code is imported on its first use.
 */
export const HOST_TASKS: readonly HostTaskDeclaration[] = [
  ...SHARP_HOST_TASKS,
  ...DATA_HOST_TASKS,
  ...OFFICE_MARKDOWN_HOST_TASKS,
  ...POPPLER_HOST_TASKS,
  ...IMG2PDF_HOST_TASKS,
  ...OCR_HOST_TASKS,
  ...LIBREOFFICE_HOST_TASKS,
  ...CALIBRE_HOST_TASKS,
  ...EXIFTOOL_HOST_TASKS,
];
