import { describe, expect, it } from 'vitest';
import { ConversionGraph } from '../src/platform/conversion-graph.js';
import type { EngineDescriptor, EnginePair } from '../src/platform/engine-descriptor.js';
import { planJoin } from '../src/platform/join-plan.js';

const engine = (id: string, cost: number, pairs: EnginePair[], joins: EngineDescriptor['joins'] = [], engineClass: EngineDescriptor['engineClass'] = 'documents'): EngineDescriptor => ({
  id,
  engineClass,
  description: id,
  cost,
  pairs,
  joins,
  limits: { timeoutMs: 1000, maxOutputBytes: 1000 },
  debianPackages: [],
});

const office = engine('office', 10, [{ from: 'docx', to: 'pdf' }, { from: 'docx', to: 'odt' }, { from: 'odt', to: 'pdf' }]);
const pdfTools = engine('pdftools', 2, [{ from: 'pdf', to: 'png', multipleOutputs: true }], [{ into: 'pdf', members: ['pdf'] }]);
const pictures = engine('pictures', 1, [{ from: 'png', to: 'pdf' }], [{ into: 'pdf', members: ['png', 'jpg'] }]);
const archives = engine('archives', 3, [{ from: 'zip', to: 'tar' }], [{ into: 'zip', members: 'any' }, { into: 'tar', members: 'any' }], 'media');
const graph = new ConversionGraph([office, pdfTools, pictures, archives]);

describe('planJoin (several files into one)', () => {
  it('takes the cheapest join that takes every member as it is', () => {
    const planned = planJoin(graph, ['png', 'jpg'], 'pdf');
    expect(planned).toEqual({ ok: true, plan: { engine: 'pictures', into: 'pdf', memberPlans: [[], []], engineClass: 'documents' } });
  });

  it('converts each member that the join does not take as it is, by its least lossy then cheapest plan, then joins', () => {
    const planned = planJoin(graph, ['pdf', 'docx', 'png'], 'pdf');
    expect(planned.ok).toBe(true);
    if (!planned.ok) return;
    expect(planned.plan.engine).toBe('pdftools');
    const [pdf, docx, png] = planned.plan.memberPlans;
    expect(pdf).toEqual([]);
    expect(docx![0]!.steps.map((step) => `${step.engine}:${step.from}>${step.to}`)).toEqual(['office:docx>pdf']);
    // The fallbacks of the member's conversion come with it.
    expect(docx!.length).toBeGreaterThan(1);
    expect(png![0]!.steps.map((step) => step.engine)).toEqual(['pictures']);
    // The queue of the heaviest step: the office conversion.
    expect(planned.plan.engineClass).toBe('documents');
  });

  it('takes any file into an archive, even one whose bytes show no format', () => {
    expect(planJoin(graph, ['pdf', undefined, 'docx'], 'zip')).toMatchObject({ ok: true, plan: { engine: 'archives', memberPlans: [[], [], []], engineClass: 'media' } });
  });

  it('refuses naming the first member no join takes, and a target nothing joins into', () => {
    expect(planJoin(graph, ['pdf', 'mp3'], 'pdf')).toEqual({ ok: false, member: 1, message: expect.stringContaining('File 2 is mp3, which cannot be joined into pdf') });
    expect(planJoin(graph, ['pdf', undefined], 'pdf')).toMatchObject({ ok: false, member: 1, message: expect.stringContaining('File 2: its first bytes show no format') });
    expect(planJoin(graph, ['pdf', 'pdf'], 'docx')).toEqual({ ok: false, message: 'Files are not joined into docx here; several files join into pdf, tar, zip.' });
  });

  it('never joins what a member plan turns into several files (a PDF into pages)', () => {
    const pagesOnly = new ConversionGraph([engine('raster', 1, [{ from: 'pdf', to: 'png', multipleOutputs: true }]), engine('pics', 1, [], [{ into: 'pdf', members: ['png'] }])]);
    expect(planJoin(pagesOnly, ['pdf'], 'pdf')).toMatchObject({ ok: false, member: 0 });
  });
});
