import { getFormat } from '@fileshift/formats';

/**
 * The label of a conversion step's pair: source category to target category (`document_to_image`). Format
 * pairs would make hundreds of series; the catalogue's categories keep the label bounded. A format the
 * catalogue does not know counts as `other`.
 */
export function pairClassOf(from: string, to: string): string {
  return `${categoryOf(from)}_to_${categoryOf(to)}`;
}

const categoryOf = (formatId: string): string => getFormat(formatId)?.category ?? 'other';
