-- A subscription that must be cancelled at the provider because its owner's account was
-- terminated or the business it paid for was closed: recorded first, so a provider failure is
-- retried (event redelivery, then the maintenance job) until the provider says it is cancelled.
ALTER TABLE subscriptions ADD COLUMN cancel_requested_at timestamptz;
ALTER TABLE subscriptions ADD COLUMN cancel_reason text
  CHECK (cancel_reason IN ('user_terminated', 'business_closed'));
CREATE INDEX subscriptions_cancel_requested_idx ON subscriptions (cancel_requested_at)
  WHERE cancel_requested_at IS NOT NULL AND status NOT IN ('Canceled', 'Expired');

-- Terminated accounts: any subscription of theirs still running at the provider (one completed
-- by reconciliation after the termination, too) is cancelled by the maintenance job.
CREATE TABLE terminated_users (
  user_id        integer PRIMARY KEY,
  terminated_at  timestamptz NOT NULL
);

-- A billing-period change is a new subscription plus the cancellation of the old one (Braintree
-- refuses to move a subscription to a plan with another billing cycle, error 91922).
ALTER TABLE operations DROP CONSTRAINT operations_kind_check;
ALTER TABLE operations ADD CONSTRAINT operations_kind_check
  CHECK (kind IN ('subscribe', 'change', 'cancel', 'period_change'));
