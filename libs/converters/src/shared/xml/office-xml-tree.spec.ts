import { describe, expect, it } from 'vitest';
import { parseXml, runText } from './office-xml-tree.js';

describe('parseXml for office parts (pure)', () => {
  it('reads a part with the shared reader', () => {
    expect(runText(parseXml('<?xml version="1.0"?><a:p><a:r><a:t>A &amp; </a:t></a:r><a:r><a:t><![CDATA[B]]></a:t></a:r></a:p>'))).toBe('A & B');
  });

  it('refuses what the shared reader refuses as a PackageError about the part', () => {
    expect(() => parseXml('<!DOCTYPE x><x/>')).toThrow('a part declares a DOCTYPE');
    expect(() => parseXml('<!-- nothing -->')).toThrow('a part has no root element');
    for (const xml of ['<x><y></x>', '<x>&nbsp;</x>', '<x a></x>']) expect(() => parseXml(xml), xml).toThrow('a part is not well-formed XML');
  });
});
