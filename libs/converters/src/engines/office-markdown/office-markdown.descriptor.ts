import type { EngineDescriptor } from '../../platform/engine-descriptor.js';

/**
 * Markdown for agents from office packages we read ourselves (in process): pptx → md, one section per slide.
 * ppt and odp reach it through LibreOffice (→ pptx).
 */
export const OFFICE_MARKDOWN_DESCRIPTOR: EngineDescriptor = {
  id: 'office-markdown',
  engineClass: 'documents',
  description: 'LLM-ready Markdown (in process): pptx → md (slides, bullets, tables, notes)',
  cost: 2,
  pairs: [{ from: 'pptx', to: 'md', recommended: true }],
  limits: { timeoutMs: 60_000, maxOutputBytes: 64 * 1024 * 1024, maxInputBytes: 200 * 1024 * 1024, maxEntries: 20_000, maxExpandedBytes: 512 * 1024 * 1024 },
  debianPackages: [],
};
