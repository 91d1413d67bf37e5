/**
 * Business details (spec §3): the paying organisation's address and contacts, kept per (future)
 * owner so they can be filled in before the subscription starts. GET answers an empty set with
 * id 0 when nothing was saved (spec §4: promo only then); PUT replaces the whole set.
 */
import { withTransaction } from '@wb/platform';
import { AppError, BUSINESS_DETAIL_FIELDS, vatNumberFormatValid } from '@wb/proto';
import type { BusinessDetailField, BusinessDetails, BusinessDetailsInput, EventData, RequestActor } from '@wb/proto';
import { isGuest, requireUserId } from '../policies/actor';
import { isValidEmail } from '../policies/invitationRules';
import { teamPlanOf } from '../policies/licences';
import { assertCan } from '../policies/teamAccess';
import { presentDetails } from '../presenters/business';
import { findOpenBusinessOfOwner } from '../repositories/businesses';
import type { Db } from '../repositories/db';
import { findDetails, saveDetails } from '../repositories/details';
import type { DetailsRow } from '../repositories/details';
import { findMembership } from '../repositories/members';
import { findSubscription } from '../repositories/subscriptions';
import type { TeamsDeps } from './deps';

/** 1 while the user owns an open business whose licences give a plan */
async function ownsActiveBusiness(db: Db, userId: number): Promise<boolean> {
  if (!(await findOpenBusinessOfOwner(db, userId))) return false;
  return teamPlanOf(await findSubscription(db, userId)) !== null;
}

export async function getDetails(deps: TeamsDeps, actor: RequestActor): Promise<BusinessDetails> {
  if (isGuest(actor)) return presentDetails(null, false);
  const row = await findDetails(deps.pool, actor.userId);
  return presentDetails(row, await ownsActiveBusiness(deps.pool, actor.userId));
}

export async function updateDetails(
  deps: TeamsDeps,
  input: BusinessDetailsInput,
  actor: RequestActor,
): Promise<BusinessDetails> {
  const userId = requireUserId(actor);
  const values = {} as Record<BusinessDetailField, string>;
  for (const f of BUSINESS_DETAIL_FIELDS) values[f] = input[f] ?? '';
  values.email = values.email.toLowerCase();
  if (values.email && !isValidEmail(values.email))
    throw new AppError('ERR_EMAIL_INVALID', undefined, { email: 'not an email address' });
  if (values.vat_nr && (!values.country_code || !vatNumberFormatValid(values.country_code, values.vat_nr))) {
    throw new AppError('ERR_INVALID_VAT', undefined, { vat_nr: 'not a VAT number of the country' });
  }
  return withTransaction(deps.pool, async (client) => {
    assertCan(await findMembership(client, userId), 'editDetails');
    const row = await saveDetails(client, userId, values, deps.now());
    return presentDetails(row, await ownsActiveBusiness(client, userId));
  });
}

/**
 * billing.customer.changed.v1: the billing form of an accepted checkout becomes the details (the
 * form has no phone or website: those stay as saved). The team is then named after the
 * organisation entered at checkout (spec §3 "Business info": name).
 */
export async function applyCheckoutDetails(
  client: Db,
  event: EventData<'billing.customer.changed.v1'>,
  now: Date,
): Promise<DetailsRow> {
  const saved = await findDetails(client, event.userId);
  const values = {} as Record<BusinessDetailField, string>;
  for (const f of BUSINESS_DETAIL_FIELDS) values[f] = saved?.[f] ?? '';
  for (const f of CHECKOUT_FIELDS) values[f] = event[f].trim();
  values.email = values.email.toLowerCase();
  values.country_code = values.country_code.toUpperCase();
  return saveDetails(client, event.userId, values, now);
}

const CHECKOUT_FIELDS = [
  'company',
  'first_name',
  'last_name',
  'email',
  'country_code',
  'city_region',
  'postal_code',
  'street_address',
  'extended_address',
  'vat_nr',
] as const satisfies readonly BusinessDetailField[];
