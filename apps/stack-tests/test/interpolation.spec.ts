import { describe, expect, it } from 'vitest';
import { ComposeInterpolationError, interpolate, parseEnvFile, resolveCompose } from '../src/compose-file.js';

describe('compose interpolation (the Compose specification\'s rules)', () => {
  const variables = { SET: 'value', EMPTY: '' };

  it.each([
    ['${SET}', 'value'],
    ['$SET/x', 'value/x'],
    ['${UNSET}', ''],
    ['${UNSET:-fallback}', 'fallback'],
    ['${EMPTY:-fallback}', 'fallback'],
    ['${EMPTY-fallback}', ''],
    ['${UNSET-fallback}', 'fallback'],
    ['${SET:+alternative}', 'alternative'],
    ['${EMPTY:+alternative}', ''],
    ['${EMPTY+alternative}', 'alternative'],
    ['${UNSET:-${SET}}', 'value'],
    ['$${NOT_A_VARIABLE} $$host', '${NOT_A_VARIABLE} $host'],
    ['${SET:?needed}', 'value'],
  ])('%s → %s', (text, expected) => {
    expect(interpolate(text, variables)).toBe(expected);
  });

  it('a required variable that is unset, or empty with ":?", is an error carrying its message', () => {
    expect(() => interpolate('${UNSET:?set UNSET please}', variables)).toThrow(new ComposeInterpolationError('required variable UNSET is missing a value: set UNSET please'));
    expect(() => interpolate('${EMPTY:?no}', variables)).toThrow(ComposeInterpolationError);
    expect(interpolate('${EMPTY?no}', variables)).toBe('');
  });

  it('reads .env files: comments, quotes, export', () => {
    expect(parseEnvFile('# comment\nA=1\nexport B="two words"\nC=\'x # y\'\nD=plain # trailing\n\nnot a line\n')).toEqual({ A: '1', B: 'two words', C: 'x # y', D: 'plain' });
  });

  it('keeps only the services of the active profiles, and applies YAML merges', () => {
    const text = 'x-env: &env\n  A: ${A:-1}\nservices:\n  always:\n    environment:\n      <<: *env\n      B: b\n  dev:\n    profiles: [dev]\n';
    expect(Object.keys(resolveCompose(text, {}).services)).toEqual(['always']);
    const withDev = resolveCompose(text, { COMPOSE_PROFILES: 'other, dev', A: '2' });
    expect(Object.keys(withDev.services)).toEqual(['always', 'dev']);
    expect(withDev.services.always!.environment).toEqual({ A: '2', B: 'b' });
  });
});
