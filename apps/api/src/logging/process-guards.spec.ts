import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './create-logger.js';
import { installProcessGuards, UNCAUGHT_EXIT_CODE } from './process-guards.js';

function guarded() {
  const lines: Array<{ level: number; msg: string; err?: { message: string }; origin?: string }> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const exits: number[] = [];
  const target = new EventEmitter();
  installProcessGuards(target, createLogger({ logLevel: 'info', role: 'worker', version: 'test' }, sink), (code) => exits.push(code));
  return { target, lines, exits };
}

describe('installProcessGuards', () => {
  it('logs an unhandled rejection with its error and keeps the process', () => {
    const { target, lines, exits } = guarded();
    target.emit('unhandledRejection', new Error('lost promise'), Promise.resolve());
    expect(lines).toEqual([expect.objectContaining({ level: 50, err: expect.objectContaining({ message: 'lost promise' }), msg: expect.stringContaining('keeps serving') })]);
    expect(exits).toEqual([]);
  });

  it('logs an uncaught exception as fatal and exits 70 for the supervisor', () => {
    const { target, lines, exits } = guarded();
    target.emit('uncaughtException', new TypeError('broken state'), 'uncaughtException');
    expect(lines).toEqual([expect.objectContaining({ level: 60, origin: 'uncaughtException', err: expect.objectContaining({ message: 'broken state' }) })]);
    expect(exits).toEqual([UNCAUGHT_EXIT_CODE]);
  });
});
