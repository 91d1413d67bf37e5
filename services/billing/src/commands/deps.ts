/** What commands need, built once in main.ts (and by tests with a fake clock, provider or policies). */
import type { Logger, Pool } from '@wb/platform';
import type { BillingMetrics } from '../metrics';
import type { PaymentProvider } from '../payments/provider';
import type { SeatPolicy } from '../policies/seatPolicy';
import type { Seller } from '../presenters/invoicePdf';
import type { VatChecker } from '../vat/vatChecker';

export const SCHEMA = 'billing';

export interface BillingDeps {
  pool: Pool;
  log: Logger;
  metrics: BillingMetrics;
  provider: PaymentProvider;
  vat: VatChecker;
  seats: SeatPolicy;
  seller: Seller;
  /** how long after its last attempt a pending operation the provider does not know is rolled back */
  reconcileAfterMs: number;
  now(): Date;
  /** a new idempotency key / local id: 20 characters of A-Za-z0-9_- */
  newKey(): string;
}
