/** Facts of a settled payment, as the gate hands them to the route. */
export interface PaymentReceipt {
  scheme: string;
  network: string;
  amountAtomic: string;
  asset: string;
  payTo: string;
  payer: string | null;
  txHash: string;
  settledAt: Date;
}

export interface PaidWorkOptions<T, R> {
  /** Stored with the payment record, e.g. the job id. */
  reference?: string;
  /** Turns the work's result and the receipt into the response body (default: the result). */
  present?: (result: T, receipt: PaymentReceipt) => R | Promise<R>;
  /** Undoes the work when the payment did not settle, so an unpaid request leaves no trace. */
  abandon?: (result: T) => Promise<void>;
  /** Runs when the request is answered without the work ever running (402 challenge, refusal, 503). */
  onRefused?: () => Promise<void>;
}

/**
 * What a `@Paid` route handler returns once the request is valid: the price and the work to do.
 * The gate then verifies the payment, runs the work, settles, and only then answers.
 */
export class PaidWork<T = unknown, R = T> {
  constructor(
    readonly priceAtomic: string,
    readonly run: () => Promise<T>,
    readonly options: PaidWorkOptions<T, R> = {},
  ) {}
}

export function chargeFor<T, R = T>(
  priceAtomic: number | bigint | string,
  run: () => T | Promise<T>,
  options: PaidWorkOptions<T, R> = {},
): PaidWork<T, R> {
  const price = BigInt(priceAtomic);
  if (price <= 0n) throw new RangeError('a paid route needs a positive price');
  return new PaidWork<T, R>(price.toString(), async () => run(), options);
}

/**
 * What a `@Paid` handler returns when this request owes nothing (e.g. an idempotent retry of a
 * request already paid for): the value is answered as it is and no payment is asked for.
 */
export class FreeAnswer<T = unknown> {
  constructor(readonly value: T) {}
}

export const answerWithoutCharge = <T>(value: T): FreeAnswer<T> => new FreeAnswer(value);
