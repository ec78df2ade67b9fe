import { describe, expect, it } from 'vitest';
import { portableNullables } from '../src/portable-schemas.js';

describe('portable nullable schemas', () => {
  it('turns a type array with null into anyOf, keeping annotations outside and constraints inside', () => {
    expect(portableNullables({ type: ['string', 'null'], description: 'Format id.', minLength: 1 })).toEqual({
      description: 'Format id.',
      anyOf: [{ type: 'string', minLength: 1 }, { type: 'null' }],
    });
  });

  it('reaches nested properties and array items, and drops null from an enum inside the non-null branch', () => {
    const schema = {
      type: 'object',
      properties: { tiers: { type: 'array', items: { type: ['number', 'null'] } }, status: { type: ['string', 'null'], enum: ['done', null] } },
    };
    expect(portableNullables(schema)).toEqual({
      type: 'object',
      properties: {
        tiers: { type: 'array', items: { anyOf: [{ type: 'number' }, { type: 'null' }] } },
        status: { anyOf: [{ type: 'string', enum: ['done'] }, { type: 'null' }] },
      },
    });
  });

  it('leaves schemas without a nullable type as they are', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' }, b: { anyOf: [{ type: 'object' }, { type: 'null' }] } }, required: ['a'] };
    expect(portableNullables(schema)).toEqual(schema);
  });
});
