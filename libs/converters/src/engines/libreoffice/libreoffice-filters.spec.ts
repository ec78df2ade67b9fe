import { describe, expect, it } from 'vitest';
import { LIBREOFFICE_DESCRIPTOR } from './libreoffice.descriptor.js';
import { familyOf, filterPlan } from './libreoffice-filters.js';
import { PROFILE_SETTINGS, registryModifications } from './libreoffice-profile.js';

describe('LibreOffice filters (pure)', () => {
  it('has a plan for every pair of the descriptor, in the family of its input', () => {
    const modules = { text: /^(writer|MS Word|Rich Text|Text \(encoded\)|HTML \(StarWriter\))/, sheet: /^(calc|Calc MS Excel|Text - txt - csv|HTML \(StarCalc\))/, slide: /^(impress|Impress MS PowerPoint)/ };
    for (const { from, to } of LIBREOFFICE_DESCRIPTOR.pairs) {
      const plan = filterPlan(from, to);
      expect(plan, `${from} → ${to}`).toBeDefined();
      expect(plan!.family).toBe(familyOf(from));
      expect(plan!.filter).toMatch(modules[plan!.family]);
    }
  });

  it('offers nothing else: identities, other families, unknown formats', () => {
    expect(filterPlan('docx', 'docx')).toBeUndefined();
    expect(filterPlan('docx', 'xlsx')).toBeUndefined();
    expect(filterPlan('xlsx', 'docx')).toBeUndefined();
    expect(filterPlan('pptx', 'txt')).toBeUndefined();
    expect(filterPlan('png', 'pdf')).toBeUndefined();
    expect(filterPlan('toString', 'pdf')).toBeUndefined();
    expect(filterPlan('docx', 'constructor')).toBeUndefined();
  });

  it('maps pdfa and pages onto the PDF export (SelectPdfVersion, PageRange), for PDF targets only', () => {
    expect(filterPlan('docx', 'pdf', { pdfa: '1b' })!.exportData).toEqual({ SelectPdfVersion: 1 });
    expect(filterPlan('xlsx', 'pdf', { pdfa: '2b', pages: '1-3,5' })!.exportData).toEqual({ SelectPdfVersion: 2, PageRange: '1-3,5' });
    expect(filterPlan('pptx', 'pdf', { pdfa: '3b' })).toMatchObject({ filter: 'impress_pdf_Export', exportData: { SelectPdfVersion: 3 } });
    expect(filterPlan('docx', 'odt', { pdfa: '2b', pages: '1' })!.exportData).toBeUndefined();
    expect(filterPlan('docx', 'pdf')!.exportData).toBeUndefined();
  });

  it('forces the import filter of text formats, and checks type detection for the others', () => {
    expect(filterPlan('txt', 'pdf')).toMatchObject({ importFilter: 'Text (encoded)', importFilterOptions: 'UTF8' });
    expect(filterPlan('html', 'docx')).toMatchObject({ importFilter: 'HTML (StarWriter)' });
    expect(filterPlan('docx', 'pdf')).toMatchObject({ acceptImports: ['MS Word 2007 XML', 'Office Open XML Text'] });
    expect(filterPlan('docx', 'pdf')!.importFilter).toBeUndefined();
    for (const { from, to } of LIBREOFFICE_DESCRIPTOR.pairs) {
      const plan = filterPlan(from, to)!;
      expect(Boolean(plan.importFilter) !== Boolean(plan.acceptImports?.length), `${from}`).toBe(true);
    }
  });

  it('reads CSV as UTF-8 with commas and keeps its formulas as text (token 12 false); writes UTF-8 with commas', () => {
    const importOptions = filterPlan('csv', 'xlsx')!.importFilterOptions!.split(',');
    expect(importOptions.slice(0, 4)).toEqual(['44', '34', '76', '1']);
    expect(importOptions[12]).toBe('false');
    expect(filterPlan('xlsx', 'csv')!.filterOptions!.split(',').slice(0, 4)).toEqual(['44', '34', '76', '1']);
  });
});

describe('LibreOffice profile settings', () => {
  it('turn macros off (VBA imported unrunnable), block linked content, never update links, never recalculate on load', () => {
    const xml = registryModifications();
    const setting = (path: string, prop: string) => new RegExp(`<item oor:path="${path}"><prop oor:name="${prop}" oor:op="fuse"><value>([^<]*)</value>`).exec(xml)?.[1];
    expect(setting('/org.openoffice.Office.Common/Security/Scripting', 'MacroSecurityLevel')).toBe('3');
    expect(setting('/org.openoffice.Office.Common/Security/Scripting', 'DisableMacrosExecution')).toBe('true');
    expect(setting('/org.openoffice.Office.Common/Security/Scripting', 'BlockUntrustedRefererLinks')).toBe('true');
    expect(setting('/org.openoffice.Office.Writer/Filter/Import/VBA', 'Executable')).toBe('false');
    expect(setting('/org.openoffice.Office.Calc/Filter/Import/VBA', 'Executable')).toBe('false');
    expect(setting('/org.openoffice.Office.Impress/Filter/Import/VBA', 'Load')).toBe('false');
    expect(setting('/org.openoffice.Office.Calc/Content/Update', 'Link')).toBe('1'); // Calc: never
    expect(setting('/org.openoffice.Office.Writer/Content/Update', 'Link')).toBe('0'); // Writer: never
    expect(setting('/org.openoffice.Office.Calc/Formula/Load', 'OOXMLRecalcMode')).toBe('1'); // never
    expect(setting('/org.openoffice.Office.Calc/Formula/Load', 'ODFRecalcMode')).toBe('1');
    expect(xml.match(/<item /g)).toHaveLength(PROFILE_SETTINGS.length);
  });
});
