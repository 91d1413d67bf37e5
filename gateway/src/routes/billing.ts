/**
 * Billing routes (issue 12; spec §2 settings/subscription pages, §3, §4, §7). Paths are the
 * web's; operations and schemas come from `billingOperations` in proto. Provider calls can take
 * a while (Braintree answers in seconds at worst), so the routes that reach it wait longer than
 * the bus's default 5 s.
 */
import { z } from 'zod';
import { billingOperations, invoiceIdSchema } from '@wb/proto';
import type { BillingOperation, ErrorCode } from '@wb/proto';
import { defineRoutes } from './types';
import type { HttpMethod, RouteDef } from './types';

/** the service's own provider timeout is BRAINTREE_TIMEOUT_MS (20 s) per call; a few calls per request */
const PROVIDER_TIMEOUT_MS = 60_000;

function route(
  method: HttpMethod,
  path: string,
  operation: BillingOperation,
  summary: string,
  extra: Partial<RouteDef> = {},
): RouteDef {
  const op = billingOperations[operation];
  return {
    method,
    path,
    summary,
    tag: 'billing',
    auth: 'required',
    service: 'billing',
    operation,
    ...(method === 'get' || method === 'delete' ? {} : { body: op.input }),
    response: op.output,
    ...extra,
  };
}

const provider: ErrorCode[] = ['ERR_BRAINTREE', 'ERR_TEMPORARY_PROBLEM'];

export const billingRoutes = defineRoutes([
  route('get', '/api/billing/subscription', 'subscription.get', 'The caller’s subscription, or null', {
    timeoutMs: PROVIDER_TIMEOUT_MS,
  }),
  route('get', '/api/billing/free-trial', 'trial.available', 'Whether the caller can still start the free trial'),
  route(
    'post',
    '/api/billing/trial',
    'trial.start',
    'Start the 7-day free trial of a plan (once per person; no card)',
    {
      errors: ['ERR_TRIAL_UNAVAILABLE', 'ERR_INVALID_INPUT'],
    },
  ),
  route('get', '/api/billing/client-token', 'clientToken.get', 'A client token for the payment form (Drop-in)', {
    errors: provider,
    timeoutMs: PROVIDER_TIMEOUT_MS,
  }),
  route(
    'post',
    '/api/billing/subscription',
    'subscription.create',
    'Subscribe (or upgrade the running subscription) with a payment method nonce and billing details',
    {
      errors: [...provider, 'ERR_INVALID_VAT', 'ERR_UNKNOWN_PROMO_CODE', 'ERR_SEAT_COUNT_TOO_LOW', 'ERR_INVALID_INPUT'],
      timeoutMs: PROVIDER_TIMEOUT_MS,
    },
  ),
  route(
    'put',
    '/api/billing/subscription',
    'subscription.update',
    'Change the plan, period (a new subscription from the end of the paid period) or seats of the subscription, or give it a new payment method',
    {
      errors: [...provider, 'ERR_SEAT_COUNT_TOO_LOW', 'ERR_NOT_FOUND', 'ERR_INVALID_INPUT'],
      timeoutMs: PROVIDER_TIMEOUT_MS,
    },
  ),
  route(
    'post',
    '/api/billing/subscription/cancel',
    'subscription.cancel',
    'Cancel the subscription: the plan stays until the paid period ends; no refunds',
    { errors: [...provider, 'ERR_CONFIRMATION_FAILED', 'ERR_NOT_FOUND'], timeoutMs: PROVIDER_TIMEOUT_MS },
  ),
  route('get', '/api/billing/invoices', 'invoices.list', 'The caller’s payments and refunds, newest first', {
    timeoutMs: PROVIDER_TIMEOUT_MS,
  }),
  route('get', '/api/billing/invoices/:id.pdf', 'invoice.pdf', 'One invoice as a PDF', {
    params: z.object({ id: invoiceIdSchema }),
    reply: 'file',
    fileType: 'application/pdf',
    errors: ['ERR_NOT_FOUND'],
  }),
  route(
    'post',
    '/api/billing/webhooks',
    'webhook.receive',
    'Braintree webhook notifications (form-encoded bt_signature and bt_payload; verified by signature)',
    {
      auth: 'optional',
      caller: 'server',
      bodyType: 'form',
      errors: ['ERR_FORBIDDEN', 'ERR_INVALID_INPUT', 'ERR_BRAINTREE'],
      timeoutMs: PROVIDER_TIMEOUT_MS,
    },
  ),
]);
