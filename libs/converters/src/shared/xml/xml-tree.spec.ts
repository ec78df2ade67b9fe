import { describe, expect, it } from 'vitest';
import { decodeXmlReferences } from './xml-references.js';
import { XmlSyntaxError, type XmlSyntaxErrorCode } from './xml-syntax-error.js';
import { parseXmlTree } from './xml-tree.js';

/** The code and message a refused text fails with. */
function refusal(xml: string): { code: XmlSyntaxErrorCode; message: string } {
  try {
    parseXmlTree(xml);
  } catch (error) {
    if (error instanceof XmlSyntaxError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error(`accepted: ${xml}`);
}

describe('parseXmlTree (pure)', () => {
  it('reads elements, attributes and text into a tree, prefixes kept', () => {
    expect(parseXmlTree('<a:r x="1" y=\'two\'><a:t>hi</a:t><e/> tail</a:r>')).toEqual({
      name: 'a:r',
      attributes: { x: '1', y: 'two' },
      children: [{ name: 'a:t', attributes: {}, children: ['hi'] }, { name: 'e', attributes: {}, children: [] }, ' tail'],
    });
  });

  it('allows a declaration, comments, processing instructions, whitespace and a byte-order mark around the root', () => {
    const xml = '\uFEFF<?xml version="1.0"?>\n<!-- before -->\n<r/>\n<?pi after?><!-- after -->\n';
    expect(parseXmlTree(xml)).toEqual({ name: 'r', attributes: {}, children: [] });
  });

  it('drops comments and processing instructions inside elements, joining the text around them', () => {
    expect(parseXmlTree('<r>a<!-- <b>not an element</b> -->b<?pi x?>c</r>').children).toEqual(['abc']);
  });

  it('keeps CDATA as text, undecoded, markup in it included', () => {
    expect(parseXmlTree('<r>x <![CDATA[<y> &amp; <!DOCTYPE z>]]> w</r>').children).toEqual(['x <y> &amp; <!DOCTYPE z> w']);
  });

  it('decodes the five entities and character references in text and attribute values', () => {
    expect(parseXmlTree('<r a="&quot;&#x41;&apos;">&lt;&gt;&amp;&#66;&#x1F600;</r>')).toEqual({ name: 'r', attributes: { a: '"A\'' }, children: ['<>&B😀'] });
  });

  it('keeps an ampersand that starts no reference as written', () => {
    expect(parseXmlTree('<r>AT&T &amp; a & b &#xZZ;</r>').children).toEqual(['AT&T & a & b &#xZZ;']);
  });

  it('refuses a DOCTYPE, with or without an internal subset, wherever it is', () => {
    expect(refusal('<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>')).toEqual({ code: 'doctype', message: 'a DOCTYPE (entity declarations) is not accepted' });
    expect(refusal('<?xml version="1.0"?><!doctype r><r/>').code).toBe('doctype');
    expect(refusal('<r><!DOCTYPE r></r>').code).toBe('doctype');
  });

  it('refuses an entity XML does not define, and a reference to a character XML does not allow', () => {
    expect(refusal('<r>&nbsp;</r>')).toEqual({ code: 'unknown-entity', message: 'the entity &nbsp; is not one XML defines' });
    expect(refusal('<r a="&x;"/>').code).toBe('unknown-entity');
    for (const reference of ['&#0;', '&#x1F;', '&#xD800;', '&#xFFFE;', '&#x110000;', '&#99999999999;']) expect(refusal(`<r>${reference}</r>`).code).toBe('bad-character-reference');
  });

  it('refuses text that is not well formed, naming the problem', () => {
    expect(refusal('<r><a></r>')).toEqual({ code: 'mismatched-end-tag', message: '</r> closes nothing open' });
    expect(refusal('<r></r></r>')).toEqual({ code: 'mismatched-end-tag', message: '</r> closes nothing open' });
    expect(refusal('<r><a>')).toEqual({ code: 'unclosed-element', message: '<a> is never closed' });
    expect(refusal('<r/><r/>')).toEqual({ code: 'more-than-one-root', message: 'more than one root element' });
    expect(refusal('text<r/>')).toEqual({ code: 'text-outside-root', message: 'text outside the root element' });
    expect(refusal('<r/><![CDATA[x]]>').code).toBe('text-outside-root');
    expect(refusal('<!-- only a comment -->')).toEqual({ code: 'no-root-element', message: 'there is no root element' });
    expect(refusal('')).toEqual({ code: 'no-root-element', message: 'there is no root element' });
  });

  it('refuses malformed markup', () => {
    for (const xml of ['<r a></r>', '<r a="1" a="2"/>', '<r a=1/>', '<r a="<"/>', '<1r/>', '< r/>', '<r>x</ r>', '<r><!-- never closed</r>', '<r><![CDATA[x</r>', '<?pi <r/>', '<r><!ENTITY x "y"></r>']) {
      expect(refusal(xml).code, xml).toBe('malformed-markup');
    }
    expect(refusal('<r a></r>').message).toBe('<r a> is not an XML element');
  });

  it('reads an attribute value holding ">" (the tag ends at its own ">")', () => {
    expect(parseXmlTree('<r a="x>y"/>').attributes).toEqual({ a: 'x>y' });
  });
});

describe('decodeXmlReferences (pure)', () => {
  it('returns text without references unchanged', () => {
    expect(decodeXmlReferences('plain text')).toBe('plain text');
  });
});
