/**
 * The billing service's payment-provider boundary, its Braintree implementation and the fake
 * gateway, by name (the service itself starts from main.ts; no other package imports these).
 */
export {
  customerIdFor,
  idempotentId,
  wasRefused,
  WEBHOOK_KINDS,
  type ChangeSubscriptionInput,
  type PaymentProvider,
  type ProviderCharge,
  type ProviderCustomer,
  type ProviderCustomerInput,
  type ProviderSubscription,
  type ProviderWebhookEvent,
  type SubscribeInput,
  type WebhookKind,
} from './payments/provider';
export {
  BraintreeProvider,
  braintreeEnvironment,
  createBraintreeGateway,
  type BraintreeConfig,
} from './payments/braintreeProvider';
export {
  FakeBraintree,
  type FakeBraintreeOptions,
  type FakeTransaction,
  type FakeSubscription,
} from './testing/fakeBraintree';
