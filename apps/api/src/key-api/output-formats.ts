import { CONTENT_LOSSES, FORMAT_CATEGORIES, type FileFormat, type FormatCategory, getFormat } from '@fileshift/formats';
import type { ConversionGraph } from '@fileshift/converters';

/** What the lists need of the graph of the live workers' engines. */
export type ConversionTargets = Pick<ConversionGraph, 'targetsOf' | 'isRecommended' | 'lossesOf'>;

/** 1: a recommended target; 0: available but not primary. */
export type TargetRank = 0 | 1;

export interface OutputFormatsByType {
  extensions_by_type: Partial<Record<FormatCategory, Record<string, TargetRank>>>;
  menu_popular: Array<Partial<Record<FormatCategory, string[]>>>;
  type: FormatCategory;
  losses: TargetLosses;
}

/** Target extension → what converting to it loses, in sentences; targets that lose nothing are not listed. */
export type TargetLosses = Record<string, string[]>;

const byExtension = (a: FileFormat, b: FileFormat) => a.extension.localeCompare(b.extension);

function targetFormats(source: FileFormat, graph: ConversionTargets): FileFormat[] {
  return graph
    .targetsOf(source.id)
    .map((id) => getFormat(id))
    .filter((format): format is FileFormat => format !== undefined)
    .sort(byExtension);
}

/** What each target loses of `source`, for the lists' `losses`. */
export function targetLosses(source: FileFormat, graph: ConversionTargets): TargetLosses {
  const losses: TargetLosses = {};
  for (const format of targetFormats(source, graph)) {
    const kinds = graph.lossesOf(source.id, format.id);
    if (kinds.length > 0) losses[format.extension] = kinds.map((kind) => CONTENT_LOSSES[kind]);
  }
  return losses;
}

/** The flat list of list_ext_out: every target's extension, alphabetically. */
export function outputExtensions(source: FileFormat, graph: ConversionTargets): string[] {
  return targetFormats(source, graph).map((format) => format.extension);
}

/**
 * list_ext_out_by_type: targets grouped by category (in catalogue order), each marked 1 or 0; the
 * menu lists the recommended targets, the source's own category first.
 */
export function outputFormatsByType(source: FileFormat, graph: ConversionTargets): OutputFormatsByType {
  const targets = targetFormats(source, graph);
  const categories = [source.category, ...FORMAT_CATEGORIES.filter((category) => category !== source.category)];
  const extensionsByType: OutputFormatsByType['extensions_by_type'] = {};
  const menu: OutputFormatsByType['menu_popular'] = [];
  for (const category of FORMAT_CATEGORIES) {
    const inCategory = targets.filter((format) => format.category === category);
    if (inCategory.length === 0) continue;
    extensionsByType[category] = Object.fromEntries(inCategory.map((format) => [format.extension, graph.isRecommended(source.id, format.id) ? 1 : 0]));
  }
  for (const category of categories) {
    const recommended = targets.filter((format) => format.category === category && graph.isRecommended(source.id, format.id));
    if (recommended.length > 0) menu.push({ [category]: recommended.map((format) => format.extension) });
  }
  return { extensions_by_type: extensionsByType, menu_popular: menu, type: source.category, losses: targetLosses(source, graph) };
}
