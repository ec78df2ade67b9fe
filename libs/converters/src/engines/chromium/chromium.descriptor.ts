import type { EngineDescriptor } from '../../platform/engine-descriptor.js';

/** Where Debian's package puts the browser itself (/usr/bin/chromium is a shell script that reads /etc/chromium.d). */
export const CHROMIUM_BINARY = '/usr/lib/chromium/chromium';

/**
 * HTML as a browser draws it, through Debian's Chromium, headless and warm: HTML → PDF (printed, with `paper` and
 * `margin`) and a screenshot of the whole page as PNG or JPEG. JavaScript is off and every request but the uploaded
 * page itself is refused, so a page draws from its own bytes only. Markdown and the other markup formats reach it
 * through pandoc's HTML.
 */
export const CHROMIUM_DESCRIPTOR: EngineDescriptor = {
  id: 'chromium',
  engineClass: 'documents',
  description: 'HTML (Chromium, headless, warm, no JavaScript, no requests): html → pdf png jpg',
  // A warm page is about as cheap as a pandoc step and far cheaper than LibreOffice's HTML import (10), which lays
  // HTML out as a word processor would: for every HTML source Chromium wins.
  cost: 4,
  pairs: [
    { from: 'html', to: 'pdf', recommended: true, options: ['paper', 'margin'] },
    // A screenshot is of an uploaded page; a document reaching HTML on its way is drawn as pages (pdf → png).
    { from: 'html', to: 'png', recommended: true, firstStepOnly: true },
    { from: 'html', to: 'jpg', options: ['quality'], firstStepOnly: true },
  ],
  limits: {
    timeoutMs: 120_000,
    maxOutputBytes: 512 * 1024 * 1024,
    // Chromium reserves address space by the terabyte up front (V8's sandbox, Oilpan's caged heap) and fails to start
    // under any smaller RLIMIT_AS: its memory is bounded by the upload's size, with JavaScript off, and the time limit.
    memoryBytes: 2 ** 41,
    // Threads count as processes: a browser runs about a hundred.
    processes: 1024,
    openFiles: 4096,
  },
  debianPackages: ['chromium'],
  // It opens a netlink socket to watch network changes; refused, it carries on (see seccomp-rules.ts).
  sockets: 'unix-only-refused',
};
