/** What @wb/billing shares today: the payment-provider boundary and its Braintree implementation. */
export {
  customerIdFor,
  idempotentId,
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
