import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const mcpDir = join(root, 'apps/mcp');
const manifest = (dir: string) => JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as Record<string, unknown>;

describe('the published package (built by the test target first)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-pack-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is publishable with a bin, and so are the workspace packages it depends on', () => {
    const mcp = manifest('apps/mcp');
    expect(mcp.private).toBeUndefined();
    expect(mcp.bin).toEqual({ 'fileshift-mcp': './dist/main.js' });
    expect(mcp.license).toBeTruthy();
    const workspaceDeps = Object.keys(mcp.dependencies as Record<string, string>).filter((name) => name.startsWith('@fileshift/'));
    expect(workspaceDeps.sort()).toEqual(['@fileshift/agent-wallet', '@fileshift/sdk']);
    for (const dep of ['libs/agent-wallet', 'libs/sdk']) {
      expect(manifest(dep).private, dep).toBeUndefined();
      expect(manifest(dep).files, dep).toEqual(expect.arrayContaining(['dist']));
    }
  });

  it('packs the built server and its README, without sources or tests', () => {
    const [packed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: mcpDir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as Array<{ files: Array<{ path: string }> }>;
    const paths = packed!.files.map((file) => file.path);
    expect(paths).toEqual(expect.arrayContaining(['package.json', 'README.md', 'dist/main.js', 'dist/keystore-command.js', 'dist/index.d.ts']));
    expect(paths.filter((path) => path.startsWith('src/') || path.startsWith('test/') || path.endsWith('.tsbuildinfo'))).toEqual([]);
  });

  it('runs its bin from the packed tarball: --help and keystore --help', () => {
    execFileSync('npm', ['pack', '--pack-destination', dir], { cwd: mcpDir, stdio: 'ignore' });
    execFileSync('tar', ['-xzf', join(dir, 'fileshift-mcp-1.0.0.tgz'), '-C', dir]);
    // Its dependencies as an installation would bring them: the workspace's (npm resolves them from the registry).
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
    const bin = join(dir, 'package/dist/main.js');
    expect(readFileSync(bin, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    const help = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^usage: fileshift-mcp /);
    expect(help.stdout).toContain('fileshift-mcp keystore create <file>');
    const keystoreHelp = spawnSync(process.execPath, [bin, 'keystore', '--help'], { encoding: 'utf8' });
    expect(keystoreHelp.status, keystoreHelp.stderr).toBe(0);
    expect(keystoreHelp.stdout).toMatch(/^usage: fileshift-mcp keystore create/);
  });
});
