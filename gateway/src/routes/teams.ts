/**
 * Teams routes (issue 12: business accounts with licences; spec §2 Settings users/team/
 * leave-business/close-business and join-team, §3 Business details/info, §7). Paths are the web's;
 * operations and schemas come from `teamsOperations` in proto. The two reads answer guests too
 * (an empty business with id 0, and null), so loading them never logs anybody out; everything else
 * needs a login. owner.check and seats.check are NATS only (auth and billing ask them).
 */
import {
  confirmationInputSchema,
  emptyBodySchema,
  invitationIdParamSchema,
  memberIdParamSchema,
  teamsOperations,
} from '@wb/proto';
import type { ErrorCode, TeamsOperation } from '@wb/proto';
import { z } from 'zod';
import { defineRoutes } from './types';
import type { HttpMethod, RouteDef } from './types';

const memberParams = z.object({ userId: memberIdParamSchema });
const invitationParams = z.object({ invitationId: invitationIdParamSchema });

function route(
  method: HttpMethod,
  path: string,
  operation: TeamsOperation,
  summary: string,
  extra: Partial<RouteDef> & Pick<RouteDef, 'auth'>,
): RouteDef {
  const op = teamsOperations[operation];
  return {
    method,
    path,
    summary,
    tag: 'teams',
    service: 'teams',
    operation,
    ...(method === 'get' || method === 'delete' ? {} : { body: op.input }),
    response: op.output,
    ...extra,
  };
}

/** what every owner action may answer besides its own codes */
const ownerErrors: ErrorCode[] = ['ERR_BUSINESS_NOT_FOUND', 'ERR_FORBIDDEN', 'ERR_INVALID_INPUT'];
const memberErrors: ErrorCode[] = [...ownerErrors, 'ERR_NOT_IN_BUSINESS'];

export const teamsRoutes = defineRoutes([
  route('get', '/api/business', 'details.get', 'The caller’s business details (id 0: none saved yet)', {
    auth: 'optional',
  }),
  route('put', '/api/business', 'details.update', 'Save the business details (replaces every field)', {
    auth: 'required',
    errors: ['ERR_FORBIDDEN', 'ERR_EMAIL_INVALID', 'ERR_INVALID_VAT', 'ERR_INVALID_INPUT'],
  }),
  route(
    'get',
    '/api/business/info',
    'info.get',
    'The caller’s team (null when in none): the owner sees licences, members, deactivated users and pending invitations',
    { auth: 'optional' },
  ),
  route(
    'post',
    '/api/business/invitations',
    'invitations.create',
    'Invite people by email (owner); one result per address, refused ones with their own code',
    { auth: 'required', errors: [...ownerErrors, 'ERR_TEMPORARY_PROBLEM'] },
  ),
  route(
    'delete',
    '/api/business/invitations/:invitationId',
    'invitation.cancel',
    'Cancel a pending invitation (owner)',
    {
      auth: 'required',
      params: invitationParams,
      errors: [...ownerErrors, 'ERR_INVITATION_MISSING'],
    },
  ),
  route('post', '/api/business/join', 'join', 'Join a team with the token of the join-team link', {
    auth: 'required',
    errors: [
      'ERR_INVITATION_MISSING',
      'ERR_NO_EMAIL_MATCH',
      'ERR_USER_IN_BUSINESS',
      'ERR_NO_AVAILABLE_SEATS',
      'ERR_TEMPORARY_PROBLEM',
      'ERR_INVALID_INPUT',
    ],
  }),
  route(
    'post',
    '/api/business/members/:userId/deactivate',
    'member.deactivate',
    'Deactivate a member’s licence (owner): no plan features, data kept',
    { auth: 'required', params: memberParams, body: emptyBodySchema, errors: memberErrors },
  ),
  route(
    'post',
    '/api/business/members/:userId/activate',
    'member.activate',
    'Activate a member’s licence again (owner; needs a free licence)',
    {
      auth: 'required',
      params: memberParams,
      body: emptyBodySchema,
      errors: [...memberErrors, 'ERR_NO_AVAILABLE_SEATS'],
    },
  ),
  route('delete', '/api/business/members/:userId', 'member.remove', 'Remove a member from the team (owner)', {
    auth: 'required',
    params: memberParams,
    errors: memberErrors,
  }),
  route(
    'put',
    '/api/business/seats',
    'seats.update',
    'Ask for a number of licences (owner): checked against the active users and recorded; the paid count changes with billing’s subscription',
    { auth: 'required', errors: [...ownerErrors, 'ERR_SEAT_COUNT_TOO_LOW'] },
  ),
  route('post', '/api/business/leave', 'leave', 'Leave the team (member; confirmation phrase LEAVE)', {
    auth: 'required',
    body: confirmationInputSchema,
    errors: ['ERR_CONFIRMATION_FAILED', 'ERR_NOT_IN_BUSINESS', 'ERR_FORBIDDEN', 'ERR_INVALID_INPUT'],
  }),
  route(
    'post',
    '/api/business/close',
    'close',
    'Close the business (owner; confirmation phrase CLOSE): every member’s licence ends',
    {
      auth: 'required',
      body: confirmationInputSchema,
      errors: [...ownerErrors, 'ERR_CONFIRMATION_FAILED'],
    },
  ),
]);
