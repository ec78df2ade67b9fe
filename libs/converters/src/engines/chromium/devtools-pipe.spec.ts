import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { DevToolsError, type DevToolsEvent, DevToolsPipe } from './devtools-pipe.js';

/** A pipe whose browser side the test plays: what was sent, and a way to answer in arbitrary chunks. */
function pipe() {
  const commands = new PassThrough();
  const answers = new PassThrough();
  const sent: Array<{ id: number; method: string; sessionId?: string }> = [];
  commands.on('data', (chunk: Buffer) => sent.push(...chunk.toString().split('\0').filter(Boolean).map((text) => JSON.parse(text) as (typeof sent)[number])));
  return { devtools: new DevToolsPipe(commands, answers), sent, answer: (...chunks: string[]) => chunks.forEach((chunk) => answers.write(chunk)), answers };
}

describe('DevToolsPipe', () => {
  it('frames messages by NUL bytes however the chunks fall, answers by id, events to listeners', async () => {
    const { devtools, sent, answer } = pipe();
    const events: DevToolsEvent[] = [];
    devtools.listen((event) => events.push(event));
    const first = devtools.send('Browser.getVersion');
    const second = devtools.send('Page.navigate', { url: 'about:blank' }, 'S1');
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent.map(({ id, method, sessionId }) => [id, method, sessionId])).toEqual([[1, 'Browser.getVersion', undefined], [2, 'Page.navigate', 'S1']]);
    answer('{"id":2,"result":{"frameId":"F"}}\0{"method":"Page.loadEv', 'entFired","params":{},"sessionId":"S1"}\0{"id":1,"res', 'ult":{"product":"Chrome/1"}}\0');
    expect(await first).toEqual({ product: 'Chrome/1' });
    expect(await second).toEqual({ frameId: 'F' });
    expect(events).toEqual([{ method: 'Page.loadEventFired', params: {}, sessionId: 'S1' }]);
  });

  it('an error answer rejects its command; a closed pipe rejects every waiting and later command', async () => {
    const { devtools, answer, answers } = pipe();
    const refused = devtools.send('IO.read');
    answer('{"id":1,"error":{"code":-32000,"message":"Invalid stream handle"}}\0');
    await expect(refused).rejects.toThrow(DevToolsError);
    const waiting = devtools.send('Page.printToPDF');
    answers.destroy();
    await expect(waiting).rejects.toThrow(/closed/);
    await expect(devtools.send('Browser.close')).rejects.toThrow(/closed/);
  });
});
