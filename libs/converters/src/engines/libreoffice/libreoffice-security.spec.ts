import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { officePipePaths } from './libreoffice-instance.js';
import { registryModifications } from './libreoffice-profile.js';
import { LibreOfficeRuntime } from './libreoffice.runtime.js';
import { EngineSandbox } from '../../platform/sandbox/engine-sandbox.js';
import { expectDocument, pgrep, zipText } from '../../../testing/document-checks.js';
import { SAMPLE_CELLS, SAMPLE_HEADING, sampleCsv, sampleDocm, sampleHtml, sampleOds, sampleOdt, sampleXlsx } from '../../../testing/office-samples.js';
import { convertStep } from '../../../test/support/test-context.js';

const dir = mkdtempSync(join(tmpdir(), 'fileshift-lo-security-'));
/** Every request the canary receives (method and path), from anyone. */
const requests: string[] = [];
let canary: Server;
let base = '';

/** Documents that would call the canary, or run a macro writing `marker` (Basic) or `vbaMarker` (VBA), if LibreOffice let them. */
function hostileSamples(variant: string) {
  const samples = join(dir, variant);
  mkdirSync(samples, { recursive: true });
  const url = (name: string) => `${base}/${variant}/${name}`;
  const marker = join(samples, 'MACRO-RAN');
  const vbaMarker = join(samples, 'VBA-MACRO-RAN');
  const files = {
    macroOdt: join(samples, 'macro.odt'),
    macroDocm: join(samples, 'macro.docm'),
    imageOdt: join(samples, 'image.odt'),
    imageHtml: join(samples, 'image.html'),
    webserviceOds: join(samples, 'webservice.ods'),
    webserviceXlsx: join(samples, 'webservice.xlsx'),
    webserviceCsv: join(samples, 'webservice.csv'),
  };
  writeFileSync(files.macroOdt, sampleOdt({ macroMarkerPath: marker }));
  writeFileSync(files.macroDocm, sampleDocm({ macroMarkerPath: vbaMarker }));
  writeFileSync(files.imageOdt, sampleOdt({ linkedImageUrl: url('odt-image.png') }));
  writeFileSync(files.imageHtml, sampleHtml(`<p><img src="${url('html-image.png')}" width="40" height="40" alt="linked"></p>`));
  writeFileSync(files.webserviceOds, sampleOds(`COM.MICROSOFT.WEBSERVICE("${url('ods-webservice')}")`));
  writeFileSync(files.webserviceXlsx, sampleXlsx(`_xlfn.WEBSERVICE("${url('xlsx-webservice')}")`));
  writeFileSync(files.webserviceCsv, sampleCsv([`"=WEBSERVICE(""${url('csv-webservice')}"")",3`]));
  return { files, marker, vbaMarker, requestsSeen: () => requests.filter((request) => request.includes(`/${variant}/`)) };
}

beforeAll(async () => {
  canary = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(canary.address() as AddressInfo).port}`;
  const probe = await new LibreOfficeRuntime({ log: () => undefined }).probe();
  if (!probe.available) console.error(`\n*** ENGINE MISSING: LibreOffice (${probe.problem}); these tests FAIL without it. ***\n`);
});

afterAll(async () => {
  await new Promise((resolve) => canary.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('positive control: a PERMISSIVE LibreOffice does run and fetch what these samples hold', () => {
  it('runs the Basic macro and the VBA macros, fetches both linked images and evaluates WEBSERVICE in ods, xlsx and csv', async () => {
    const { files, marker, vbaMarker, requestsSeen } = hostileSamples('control');
    const profile = join(dir, 'control-profile');
    mkdirSync(join(profile, 'user'), { recursive: true });
    // Macros from anywhere, VBA imported executable, recalculation and link updates always: the opposite of our profile.
    const permissive = [
      { path: '/org.openoffice.Office.Common/Security/Scripting', prop: 'MacroSecurityLevel', value: 0, why: '' },
      { path: '/org.openoffice.Office.Writer/Filter/Import/VBA', prop: 'Load', value: true, why: '' },
      { path: '/org.openoffice.Office.Writer/Filter/Import/VBA', prop: 'Executable', value: true, why: '' },
      { path: '/org.openoffice.Office.Calc/Formula/Load', prop: 'OOXMLRecalcMode', value: 0, why: '' },
      { path: '/org.openoffice.Office.Calc/Formula/Load', prop: 'ODFRecalcMode', value: 0, why: '' },
      { path: '/org.openoffice.Office.Calc/Content/Update', prop: 'Link', value: 0, why: '' },
    ];
    writeFileSync(join(profile, 'user', 'registrymodifications.xcu'), registryModifications(permissive));
    const pipe = `fileshift-control-${process.pid}`;
    const office: ChildProcess = spawn(
      '/usr/lib/libreoffice/program/soffice',
      [`-env:UserInstallation=${pathToFileURL(profile).href}`, '--headless', '--invisible', '--norestore', '--nologo', `--accept=pipe,name=${pipe};urp;`],
      { detached: true, stdio: 'ignore', env: { PATH: '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8' } },
    );
    try {
      const script = new URL('../../../test/support/uno-control.py', import.meta.url).pathname;
      const output = await new Promise<string>((resolve, reject) =>
        execFile('/usr/bin/python3', [script, pipe, dir, ...Object.values(files)], { timeout: 90_000 }, (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout))),
      );
      for (const file of Object.values(files)) expect(output, output).toContain(`controlled ${basename(file)}`);
    } finally {
      process.kill(-office.pid!, 'SIGKILL');
      for (let wait = 0; wait < 20 && pgrep(pipe).length > 0; wait++) await new Promise((r) => setTimeout(r, 100));
      for (const path of officePipePaths(process.getuid!(), pipe, pathToFileURL(profile).href)) rmSync(path, { force: true });
    }
    expect(pgrep(pipe)).toEqual([]);
    expect(existsSync(marker)).toBe(true);
    // Both VBA entry points of the docm ran (see uno-control.py for how they are fired in soffice 7.4).
    expect([...new Set(readFileSync(vbaMarker, 'latin1').split(/\r?\n/).filter(Boolean))].sort()).toEqual(['AutoOpen ran', 'Document_Open ran']);
    const seen = requestsSeen().join('\n');
    for (const path of ['odt-image.png', 'html-image.png', 'ods-webservice', 'xlsx-webservice', 'csv-webservice']) expect(seen).toContain(`/control/${path}`);
  });
});

// The engine sandbox off (the profile and load properties alone) and required (every layer).
for (const isolation of ['off', 'required'] as const) {
  describe(`the pool, engine sandbox ${isolation}: macros never run, nothing remote is fetched`, () => {
    const logged: string[] = [];
    const workRoot = mkdtempSync(join(dir, `pool-${isolation}-`));
    const runtime = new LibreOfficeRuntime({ size: 1, workRoot, sandbox: EngineSandbox.start(isolation), log: (_, message) => logged.push(message) });
    let samples: ReturnType<typeof hostileSamples>;
    const outDir = join(dir, `out-${isolation}`);

    beforeAll(async () => {
      samples = hostileSamples(isolation);
      await runtime.start();
    });
    afterAll(() => runtime.stop());

    it(`puts soffice in a sandbox of its own ${isolation === 'off' ? 'never' : '(its own network namespace)'}, and says so in the log`, async () => {
      const { sandboxed, instances } = await runtime.inspect();
      expect(sandboxed).toBe(isolation === 'required');
      const officePid = instances[0]!.officePid!;
      const sameNetwork = readlinkSync(`/proc/${officePid}/ns/net`) === readlinkSync('/proc/self/ns/net');
      expect(sameNetwork).toBe(isolation === 'off');
      expect(logged.some((line) => line.includes(isolation === 'off' ? 'not sandboxed' : 'each instance in a sandbox of its own'))).toBe(true);
    });

    it('never runs a macro bound to the document events (load, export, close)', async () => {
      for (const to of ['pdf', 'docx', 'rtf', 'html']) {
        const [out] = (await convertStep(runtime, { inputPath: samples.files.macroOdt, from: 'odt', to }, outDir)) as [string];
        expectDocument(out, to, SAMPLE_HEADING);
      }
      expect(existsSync(samples.marker)).toBe(false);
    });

    it('never runs a VBA macro of a macro-enabled Word document (Document_Open, AutoOpen)', async () => {
      // Our catalogue has no docm: a .docm is read as docx (LibreOffice detects it by content as MS Word 2007 XML VBA), so not
      // docx → docx, which is no conversion.
      const outputs: Record<string, string> = {};
      for (const to of ['pdf', 'odt', 'rtf']) {
        [outputs[to]] = (await convertStep(runtime, { inputPath: samples.files.macroDocm, from: 'docx', to }, outDir)) as [string];
        expectDocument(outputs[to]!, to, SAMPLE_HEADING);
      }
      expect(existsSync(samples.vbaMarker)).toBe(false);
      // The pool did import the VBA project (it travels into the ODT as Basic), every line commented out by the profile's
      // VBA Executable false: not a runnable Sub left, here or in the output.
      const basic = ['ThisDocument', 'AutoMacros'].map((module) => zipText(outputs.odt!, `Basic/Project/${module}.xml`)).join('\n');
      expect(basic).toContain('Rem Private Sub Document_Open()');
      expect(basic).toContain('Rem Sub AutoOpen()');
      expect(basic).not.toMatch(/^(Private )?Sub (Document_Open|AutoOpen)/m);
    });

    it('never fetches a linked image (ODT draw:image, HTML img)', async () => {
      const [odt] = (await convertStep(runtime, { inputPath: samples.files.imageOdt, from: 'odt', to: 'pdf' }, outDir)) as [string];
      expectDocument(odt, 'pdf', SAMPLE_HEADING);
      const [docx] = (await convertStep(runtime, { inputPath: samples.files.imageOdt, from: 'odt', to: 'docx' }, outDir)) as [string];
      expectDocument(docx, 'docx', SAMPLE_HEADING);
      const [html] = (await convertStep(runtime, { inputPath: samples.files.imageHtml, from: 'html', to: 'pdf' }, outDir)) as [string];
      expectDocument(html, 'pdf', SAMPLE_HEADING);
      expect(samples.requestsSeen()).toEqual([]);
    });

    it('never evaluates WEBSERVICE (ods, xlsx, csv → pdf, csv, xlsx)', async () => {
      const cases: Array<[string, string, string]> = [
        [samples.files.webserviceOds, 'ods', 'pdf'],
        [samples.files.webserviceOds, 'ods', 'csv'],
        [samples.files.webserviceXlsx, 'xlsx', 'pdf'],
        [samples.files.webserviceXlsx, 'xlsx', 'csv'],
        [samples.files.webserviceCsv, 'csv', 'pdf'],
        [samples.files.webserviceCsv, 'csv', 'xlsx'],
      ];
      for (const [inputPath, from, to] of cases) {
        const [out] = (await convertStep(runtime, { inputPath, from, to }, outDir)) as [string];
        expectDocument(out, to, SAMPLE_CELLS[0]);
      }
      expect(samples.requestsSeen()).toEqual([]);
    });
  });
}
