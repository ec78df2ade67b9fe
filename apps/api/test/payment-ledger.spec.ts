import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PaymentIdentifierInUseError, PaymentReplayError, type VerifiedPaymentRecord } from '@fileshift/x402-nest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataSourceOptions } from '../src/database/data-source-options.js';
import { preparedStatementsOf } from '../src/database/prepared-statements.js';
import { runMigrations } from '../src/database/run-migrations.js';
import { PaymentLedgerRepository } from '../src/payments/payment-ledger.repository.js';
import { PaymentRecord } from '../src/payments/payment-record.entity.js';
import { SCHEMA } from '../src/schema.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

const verified = (overrides: Partial<VerifiedPaymentRecord> = {}): VerifiedPaymentRecord => ({
  endpoint: 'detect-file-type',
  scheme: 'exact',
  network: 'eip155:31337',
  payer: '0x1111111111111111111111111111111111111111',
  amountAtomic: '123456789012345678901234567890',
  asset: '0x2222222222222222222222222222222222222222',
  payTo: '0x3333333333333333333333333333333333333333',
  nonce: `0x${randomBytes(32).toString('hex')}`,
  reference: null,
  paymentId: null,
  requestFingerprint: null,
  ...overrides,
});

/** The ledger's writes on the paid path are prepared statements: the same rows, errors and receipts on both databases. */
describe.each(['PostgreSQL', 'embedded PGlite'])('the payment ledger on %s', (kind) => {
  let database: TestDatabase | undefined;
  let dataDir: string | undefined;
  let dataSource: DataSource;
  let ledger: PaymentLedgerRepository;

  beforeAll(async () => {
    if (kind === 'PostgreSQL') database = await createTestDatabase();
    else dataDir = mkdtempSync(join(tmpdir(), 'fileshift-ledger-'));
    dataSource = await new DataSource(dataSourceOptions({ databaseUrl: database?.url, dataDir: dataDir ?? '.' }, SCHEMA)).initialize();
    await runMigrations(dataSource);
    ledger = new PaymentLedgerRepository(dataSource.getRepository(PaymentRecord), dataSource);
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('records a payment verified, then settled, and answers the receipt the row holds', async () => {
    for (let payment = 0; payment < 3; payment++) {
      const record = verified({ paymentId: `pay_${randomBytes(8).toString('hex')}`, requestFingerprint: 'f' });
      const id = await ledger.recordVerified(record);
      const [stored] = await dataSource.query('SELECT status, nonce, amount_atomic::text AS amount FROM payment_records WHERE id = $1', [id]);
      expect(stored).toEqual({ status: 'verified', nonce: record.nonce, amount: record.amountAtomic });

      const settledAt = new Date('2026-12-02T17:01:02.345Z');
      const receipt = await ledger.recordSettled(id, { txHash: '0xfeed', payer: record.payer, settledAt });
      expect(receipt).toEqual({ scheme: 'exact', network: record.network, amountAtomic: record.amountAtomic, asset: record.asset, payTo: record.payTo, payer: record.payer, txHash: '0xfeed', settledAt });
      // The same receipt as the ledger's other readers (TypeORM's query()) make of the row.
      expect((await ledger.paymentWithId(record.paymentId!))?.receipt).toEqual(receipt);
    }
  });

  it('names a nonce used twice a replay, and an identifier held by another payment as held', async () => {
    const first = verified({ paymentId: `pay_${randomBytes(8).toString('hex')}` });
    await ledger.recordVerified(first);
    await expect(ledger.recordVerified(verified({ nonce: first.nonce }))).rejects.toBeInstanceOf(PaymentReplayError);
    await expect(ledger.recordVerified(verified({ paymentId: first.paymentId }))).rejects.toBeInstanceOf(PaymentIdentifierInUseError);
    // The session goes on after a refused statement.
    await expect(ledger.recordVerified(verified())).resolves.toMatch(/^[0-9a-f-]{36}$/);
  });

  it('says a record that vanished before settlement did', async () => {
    await expect(ledger.recordSettled('00000000-0000-4000-8000-000000000000', { txHash: '0x1', payer: null, settledAt: new Date() })).rejects.toThrow(/vanished/);
  });

  it('prepares a statement once even when its first run fails, and never keeps a statement that did not parse', async () => {
    const statements = preparedStatementsOf(dataSource);
    const name = `ledger_test_${kind === 'PostgreSQL' ? 'pg' : 'pglite'}`;
    const insert = { name, text: `INSERT INTO payment_records (endpoint, scheme, network, amount_atomic, asset, pay_to, nonce, status) VALUES ('e', 's', 'n', $1, 'a', 'p', $2, 'verified') RETURNING amount_atomic, created_at` };
    await expect(statements.run(insert, ['not a number', 'nonce-a'])).rejects.toMatchObject({ code: '22P02' });
    const [row] = await statements.run<{ amount_atomic: string; created_at: Date }>(insert, ['42', 'nonce-a']);
    expect(row).toEqual({ amount_atomic: '42', created_at: expect.any(Date) });
    const broken = { name: `${name}_broken`, text: 'SELECT * FROM no_such_table' };
    await expect(statements.run(broken, [])).rejects.toMatchObject({ code: '42P01' });
    await expect(statements.run(broken, [])).rejects.toMatchObject({ code: '42P01' });
  });
});
