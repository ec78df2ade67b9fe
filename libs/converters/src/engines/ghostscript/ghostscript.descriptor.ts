import type { EngineDescriptor } from '../../platform/engine-descriptor.js';

/** PostScript and EPS to PDF, and a PDF rewritten as PDF/A or re-compressed, through Ghostscript (always -dSAFER). */
export const GHOSTSCRIPT_DESCRIPTOR: EngineDescriptor = {
  id: 'ghostscript',
  engineClass: 'documents',
  description: 'PostScript and EPS to PDF; PDF/A and compression of PDFs (Ghostscript, -dSAFER)',
  cost: 5,
  pairs: [
    { from: 'ps', to: 'pdf', recommended: true, options: ['pdfa', 'compress'] },
    // An EPS is one picture: its page is its bounding box (-dEPSCrop); from the PDF, poppler renders it.
    { from: 'eps', to: 'pdf', recommended: true, options: ['pdfa', 'compress'] },
    { from: 'pdf', to: 'pdf', options: ['pdfa', 'compress', 'pages'] },
  ],
  // PostScript is a program: one that loops or allocates without end stops at 45 s of CPU or 1.5 GB, well before
  // the step's 120 s (a 200-byte program reached 3.7 GB before these limits).
  limits: { timeoutMs: 120_000, maxOutputBytes: 512 * 1024 * 1024, maxPages: 2000, cpuSeconds: 45, memoryBytes: 1536 * 1024 * 1024 },
  // poppler-utils: pdfinfo reads every PDF input (encryption, page count) before Ghostscript does.
  debianPackages: ['ghostscript', 'poppler-utils'],
};
