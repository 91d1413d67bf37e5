-- Billing schema: customers (billing details, the buyer on invoices), subscriptions (ours and the
-- payment provider's), what each user's subscription gives (entitlements, announced as
-- billing.subscription.changed.v1), free-trial claims, pending provider operations (idempotency
-- and reconciliation), invoices, promo codes and handled webhook notifications.
-- Money is integer euro cents; VAT rates are percent.

CREATE TABLE customers (
  user_id               integer PRIMARY KEY,
  provider_customer_id  text NOT NULL,
  first_name            text NOT NULL,
  last_name             text NOT NULL,
  email                 text NOT NULL,
  company               text NOT NULL DEFAULT '',
  vat_nr                text,
  vat_nr_valid          boolean NOT NULL DEFAULT false,
  country_code          text NOT NULL,
  city_region           text NOT NULL,
  postal_code           text NOT NULL,
  street_address        text NOT NULL,
  extended_address      text NOT NULL DEFAULT '',
  updated_at            timestamptz NOT NULL
);

CREATE TABLE subscriptions (
  -- "trial-…" marks a trial (spec §4); the provider's subscription id, or our own for a card-less trial
  id                   text PRIMARY KEY,
  user_id              integer NOT NULL,
  plan                 text NOT NULL CHECK (plan IN ('standard', 'premium', 'ultimate')),
  billing_period       text NOT NULL CHECK (billing_period IN ('monthly', 'yearly')),
  seats                integer NOT NULL CHECK (seats >= 1),
  status               text NOT NULL CHECK (status IN ('Active', 'Canceled', 'Expired', 'Past Due', 'Pending')),
  trial                boolean NOT NULL,
  -- false: a card-less trial that exists only here (nothing at the provider)
  at_provider          boolean NOT NULL,
  first_billing_date   timestamptz,
  next_billing_date    timestamptz,
  -- cents per billing cycle, VAT included
  next_billing_amount  integer NOT NULL,
  balance              integer NOT NULL DEFAULT 0,
  -- end of the paid (or trial) period: the plan stays active until then
  expires              timestamptz,
  vat_rate             numeric(5, 2) NOT NULL,
  vat_rule             text NOT NULL,
  promo_code           text,
  promo_percent        integer NOT NULL DEFAULT 0,
  created_at           timestamptz NOT NULL,
  cancelled_at         timestamptz,
  synced_at            timestamptz
);
-- the user's current subscription is their newest one
CREATE INDEX subscriptions_user_idx ON subscriptions (user_id, created_at DESC, id);

-- What each user's own subscription gives, as last announced (billing.subscription.changed.v1).
CREATE TABLE entitlements (
  user_id          integer PRIMARY KEY,
  subscription_id  text NOT NULL,
  plan             text,
  seats            integer NOT NULL,
  updated_at       timestamptz NOT NULL
);
-- the maintenance job: entitlements that may have lapsed
CREATE INDEX entitlements_active_idx ON entitlements (subscription_id) WHERE plan IS NOT NULL;

-- The free trial: once per person, ever.
CREATE TABLE trial_claims (
  user_id          integer PRIMARY KEY,
  subscription_id  text NOT NULL,
  claimed_at       timestamptz NOT NULL
);

-- A provider call that changes money or subscriptions is recorded here first (its id is the
-- idempotency key the provider's ids derive from), then made outside any transaction, then
-- completed in the transaction that records its result. Pending rows left by a crash or an
-- unknown outcome (timeout, 5xx) are finished or rolled back from the provider's truth.
CREATE TABLE operations (
  id               text PRIMARY KEY CHECK (id ~ '^[A-Za-z0-9_-]{1,30}$'),
  user_id          integer NOT NULL,
  kind             text NOT NULL CHECK (kind IN ('subscribe', 'change', 'cancel')),
  state            text NOT NULL CHECK (state IN ('pending', 'done', 'failed')),
  -- sha256 of what was asked (a retried request has the same): never the nonce itself
  fingerprint      text NOT NULL,
  -- subscribe: the id the provider will give it; change/cancel: the subscription changed
  subscription_id  text NOT NULL,
  -- what completing it needs (plan, period, seats, amount, VAT, billing details); no card data
  request          jsonb NOT NULL,
  error            text,
  created_at       timestamptz NOT NULL,
  -- last attempt at the provider (reconciliation waits RECONCILE_AFTER_MS after it)
  attempted_at     timestamptz NOT NULL,
  finished_at      timestamptz
);
-- one operation in flight per user: the next one waits until it is finished or rolled back
CREATE UNIQUE INDEX operations_pending_user_idx ON operations (user_id) WHERE state = 'pending';
CREATE INDEX operations_pending_idx ON operations (attempted_at) WHERE state = 'pending';
CREATE INDEX operations_fingerprint_idx ON operations (user_id, fingerprint, created_at DESC);

-- Payments and refunds (the provider's transactions), numbered for the invoice PDF; the buyer is
-- the billing details at the time of the payment.
CREATE TABLE invoices (
  id               text PRIMARY KEY,
  number           bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  user_id          integer NOT NULL,
  subscription_id  text,
  created_at       timestamptz NOT NULL,
  type             text NOT NULL CHECK (type IN ('payment', 'refund', 'unknown')),
  status           text NOT NULL CHECK (status IN ('settled', 'pending')),
  currency         text NOT NULL,
  -- gross, VAT included; negative for a refund
  amount           integer NOT NULL,
  net_amount       integer NOT NULL,
  vat_amount       integer NOT NULL,
  vat_rate         numeric(5, 2) NOT NULL,
  vat_rule         text NOT NULL,
  description      text NOT NULL,
  buyer            jsonb NOT NULL
);
CREATE INDEX invoices_user_idx ON invoices (user_id, created_at DESC);

-- Promo codes (no admin UI yet: rows are inserted with SQL). Percent off every billing cycle.
CREATE TABLE promo_codes (
  code         text PRIMARY KEY CHECK (code = upper(code)),
  percent_off  integer NOT NULL CHECK (percent_off BETWEEN 1 AND 100),
  active       boolean NOT NULL DEFAULT true,
  expires_at   timestamptz
);

-- Webhook notifications already handled (sha256 of the signed payload): a replay changes nothing.
CREATE TABLE webhook_notifications (
  digest           text PRIMARY KEY,
  kind             text NOT NULL,
  subscription_id  text,
  received_at      timestamptz NOT NULL
);
