import { describe, it } from 'vitest';
import { proveShard, setUpMatrix } from './support/conversion-matrix.js';

// A shard of the conversion matrix (support/conversion-matrix.ts says what the matrix proves, and how it is sharded).
setUpMatrix('documents-2');

describe('the conversion matrix, documents-2: every pair of the shard, from a real sample, checked by another decoder', () => {
  it('proves every advertised pair', () => proveShard('documents-2'), 1_200_000);
});
