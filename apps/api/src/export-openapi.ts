import 'reflect-metadata';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pino } from 'pino';
import { createHttpApp } from './bootstrap.js';
import { loadConfig } from './config/app-config.js';
import { OpenApiDocumentStore } from './http-kit/openapi-document.store.js';
import { serviceVersion } from './version.js';

/** The server URL written into the exported document, so the export does not depend on the machine. */
export const EXPORTED_SERVER_URL = 'http://localhost:3000';

/**
 * `npx nx run api:openapi -- <file>` (path relative to the repository root): writes the OpenAPI document the service serves in dev mode to a file
 * (the SDK generates its types from it). Uses a throw-away PGlite database; Redis must be reachable.
 */
async function exportOpenApi(outputPath: string): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'fileshift-openapi-'));
  const loaded = loadConfig(
    {
      ROLE: 'api',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      PUBLIC_BASE_URL: EXPORTED_SERVER_URL,
      QUEUE_PREFIX: `fileshift-openapi-export-${process.pid}`,
      ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    },
    serviceVersion(),
  );
  if (!loaded.ok) throw new Error(loaded.problems.join('; '));
  const app = await createHttpApp(loaded.config, pino({ level: 'silent' }));
  try {
    const document = app.get(OpenApiDocumentStore).json();
    writeFileSync(outputPath, `${JSON.stringify(document, null, 2)}\n`);
    process.stdout.write(`wrote ${outputPath}\n`);
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const target = process.argv[2];
if (!target) {
  process.stderr.write('usage: export-openapi <output.json>\n');
  process.exit(64);
}
exportOpenApi(resolve(target)).catch((error: unknown) => {
  process.stderr.write(`fileshift: OpenAPI export failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
