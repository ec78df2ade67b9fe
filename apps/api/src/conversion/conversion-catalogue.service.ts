import { Injectable, Logger } from '@nestjs/common';
import { ConversionGraph, ENGINE_DESCRIPTORS } from '@fileshift/converters';
import { within } from '../queue/within.js';
import { CapabilityBoard } from './capability-board.js';

/** How long the graph of the live workers is reused before the board is read again. */
const FRESH_MS = 2000;
const READ_TIMEOUT_MS = 1000;

/**
 * What the service can convert right now: the graph of the engines some live worker has (its
 * capabilities in Redis). The API validates requests, lists output formats and reports detection's
 * `convertible_to` from it, without ever starting or configuring an engine. When Redis cannot be read,
 * the last graph known stands.
 */
@Injectable()
export class ConversionCatalogue {
  private readonly logger = new Logger(ConversionCatalogue.name);
  private graph = new ConversionGraph([]);
  private engines = '';
  private readAt = 0;
  private reading?: Promise<ConversionGraph>;

  constructor(private readonly board: CapabilityBoard) {}

  /** The graph of the live workers' engines (read at most every 2 s, one read at a time). */
  async current(): Promise<ConversionGraph> {
    if (Date.now() - this.readAt < FRESH_MS) return this.graph;
    this.reading ??= this.read().finally(() => (this.reading = undefined));
    return this.reading;
  }

  private async read(): Promise<ConversionGraph> {
    try {
      const workers = await within(this.board.live(), READ_TIMEOUT_MS, 'Redis');
      const engines = [...new Set(workers.flatMap((worker) => worker.engines))].sort();
      if (engines.join() !== this.engines) {
        this.graph = new ConversionGraph(ENGINE_DESCRIPTORS.filter((descriptor) => engines.includes(descriptor.id)));
        this.engines = engines.join();
        this.logger.log(`live workers' engines: ${engines.join(', ') || 'none'}`);
      }
      this.readAt = Date.now();
    } catch (error) {
      this.logger.warn(`workers' capabilities not read; the last known stand: ${(error as Error).message}`);
      this.readAt = Date.now() - FRESH_MS / 2;
    }
    return this.graph;
  }
}
