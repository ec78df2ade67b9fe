import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** One setting of LibreOffice's configuration (org.openoffice.* path, property, typed value). */
export interface ProfileSetting {
  path: string;
  prop: string;
  value: number | boolean;
  /** Why we set it (its README, review). */
  why: string;
}

/**
 * What every fresh instance profile says, before soffice first reads it. Defence in depth beside the load
 * properties the bridge passes (hidden, read-only, MacroExecutionMode NEVER_EXECUTE, UpdateDocMode NO_UPDATE).
 */
export const PROFILE_SETTINGS: readonly ProfileSetting[] = [
  { path: '/org.openoffice.Office.Common/Security/Scripting', prop: 'MacroSecurityLevel', value: 3, why: 'very high: only macros from trusted locations, of which there are none' },
  { path: '/org.openoffice.Office.Common/Security/Scripting', prop: 'DisableMacrosExecution', value: true, why: 'no macro runs, whatever the document says' },
  // VBA of Office documents (docm, xlsm, pptm…): imported as comments, never as runnable Basic.
  { path: '/org.openoffice.Office.Writer/Filter/Import/VBA', prop: 'Executable', value: false, why: 'VBA of Word documents is imported commented out: Document_Open, AutoOpen cannot run' },
  { path: '/org.openoffice.Office.Calc/Filter/Import/VBA', prop: 'Executable', value: false, why: 'VBA of Excel workbooks is imported commented out: Workbook_Open, Auto_Open cannot run' },
  // Impress has no Executable switch (its VBA import is Load and Save only): not loaded at all.
  { path: '/org.openoffice.Office.Impress/Filter/Import/VBA', prop: 'Load', value: false, why: 'VBA of PowerPoint presentations is not loaded (Impress has no Executable switch)' },
  { path: '/org.openoffice.Office.Common/Security/Scripting', prop: 'BlockUntrustedRefererLinks', value: true, why: 'linked images and other linked content of a document are never loaded' },
  // Calc's link modes: 0 always, 1 never, 2 on request.
  { path: '/org.openoffice.Office.Calc/Content/Update', prop: 'Link', value: 1, why: 'Calc never updates links (external references, DDE, WEBSERVICE)' },
  // Writer's link modes: 0 never, 1 on request, 2 always.
  { path: '/org.openoffice.Office.Writer/Content/Update', prop: 'Link', value: 0, why: 'Writer never updates links (linked sections, OLE links)' },
  // Recalculation on load: 0 always, 1 never, 2 prompt.
  { path: '/org.openoffice.Office.Calc/Formula/Load', prop: 'OOXMLRecalcMode', value: 1, why: 'xlsx formulas are not recalculated on load (WEBSERVICE is not evaluated)' },
  { path: '/org.openoffice.Office.Calc/Formula/Load', prop: 'ODFRecalcMode', value: 1, why: 'ods formulas are not recalculated on load' },
  { path: '/org.openoffice.Office.Recovery/RecoveryInfo', prop: 'Enabled', value: false, why: 'no recovery data written in the background' },
  { path: '/org.openoffice.Office.Recovery/AutoSave', prop: 'Enabled', value: false, why: 'no autosave' },
  { path: '/org.openoffice.Office.Common/Misc', prop: 'UseLocking', value: false, why: 'no lock files beside the inputs' },
];

const xml = (setting: ProfileSetting) =>
  `<item oor:path="${setting.path}"><prop oor:name="${setting.prop}" oor:op="fuse"><value>${String(setting.value)}</value></prop></item>`;

/** The user configuration file of a profile, as LibreOffice writes it itself. */
export function registryModifications(settings: readonly ProfileSetting[] = PROFILE_SETTINGS): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n` +
    settings.map(xml).join('\n') +
    `\n</oor:items>\n`
  );
}

/** Writes a fresh profile (`-env:UserInstallation` points at `profileDir`) holding only our settings. */
export async function writeProfile(profileDir: string): Promise<void> {
  await mkdir(join(profileDir, 'user'), { recursive: true });
  await writeFile(join(profileDir, 'user', 'registrymodifications.xcu'), registryModifications());
}
