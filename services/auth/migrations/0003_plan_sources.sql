-- Where each user's plan comes from (issue 12): their own subscription (billing service) and a
-- licence in a team (teams service), as the latest event of each source said. users.plan holds
-- the effective plan computed from these (effectivePlanName in proto), so reads stay one row.
-- *_seq is the producer's outbox sequence of the event applied last: an older event that arrives
-- late (a retried delivery) is ignored instead of undoing a newer one.
CREATE TABLE plan_sources (
  user_id           integer PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  subscription_plan text CHECK (subscription_plan IN ('starter', 'standard', 'premium', 'ultimate')),
  subscription_seq  bigint NOT NULL DEFAULT 0,
  team_plan         text CHECK (team_plan IN ('starter', 'standard', 'premium', 'ultimate')),
  team_seq          bigint NOT NULL DEFAULT 0,
  updated_at        timestamptz NOT NULL DEFAULT now()
);
