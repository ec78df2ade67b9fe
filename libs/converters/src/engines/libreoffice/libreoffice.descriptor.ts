import { availableParallelism } from 'node:os';
import { allPairs, type EngineDescriptor, type EnginePair } from '../../platform/engine-descriptor.js';

export const LIBREOFFICE_TEXT_INPUTS = ['docx', 'doc', 'odt', 'rtf', 'txt', 'html'] as const;
export const LIBREOFFICE_TEXT_OUTPUTS = ['pdf', 'docx', 'odt', 'rtf', 'txt', 'html'] as const;
export const LIBREOFFICE_SHEET_INPUTS = ['xlsx', 'xls', 'ods', 'csv'] as const;
export const LIBREOFFICE_SHEET_OUTPUTS = ['pdf', 'xlsx', 'ods', 'csv', 'html'] as const;
export const LIBREOFFICE_SLIDE_INPUTS = ['pptx', 'ppt', 'odp'] as const;
export const LIBREOFFICE_SLIDE_OUTPUTS = ['pdf', 'pptx', 'odp'] as const;
/** The formats whose input a Node host reads, and perhaps copies cleaned, before LibreOffice loads it (loadable-input.ts). */
export const PREPARED_FORMATS: ReadonlySet<string> = new Set(['html', 'rtf']);

/** PDF and the editable format of each family are what people convert documents to. */
const RECOMMENDED = new Set(['pdf', 'docx', 'xlsx', 'pptx']);

const attributes = (to: string): Omit<EnginePair, 'from' | 'to'> => ({
  recommended: RECOMMENDED.has(to),
  options: to === 'pdf' ? ['pdfa', 'pages'] : [],
});

/**
 * Documents, spreadsheets and presentations through LibreOffice, kept warm and driven over UNO (macros
 * never run, nothing remote is fetched). Text documents, spreadsheets and presentations each convert
 * within their own family and to PDF.
 */
export const LIBREOFFICE_DESCRIPTOR: EngineDescriptor = {
  id: 'libreoffice',
  engineClass: 'documents',
  description: 'documents, spreadsheets, presentations (LibreOffice, warm, over UNO): docx doc odt rtf txt html, xlsx xls ods csv, pptx ppt odp → pdf and each other',
  cost: 10,
  pairs: [
    ...allPairs(LIBREOFFICE_TEXT_INPUTS, LIBREOFFICE_TEXT_OUTPUTS, attributes),
    ...allPairs(LIBREOFFICE_SHEET_INPUTS, LIBREOFFICE_SHEET_OUTPUTS, attributes),
    ...allPairs(LIBREOFFICE_SLIDE_INPUTS, LIBREOFFICE_SLIDE_OUTPUTS, attributes),
  ],
  limits: { timeoutMs: 120_000, maxOutputBytes: 512 * 1024 * 1024, maxPages: 2000 },
  debianPackages: ['libreoffice-writer-nogui', 'libreoffice-calc-nogui', 'libreoffice-impress-nogui', 'python3-uno'],
};

/** Warm instances by default: half the cores, at least 1 and at most 4 (conversions are CPU-bound and memory-hungry). */
export const defaultLibreOfficePoolSize = (cores = availableParallelism()) => Math.max(1, Math.min(4, Math.floor(cores / 2)));
