/**
 * The error-code catalogue: every code a service or the gateway may answer with, its HTTP
 * status and the default readable message. Codes come from the product spec §8; the few
 * transport codes (ERR_UNAUTHORIZED, ERR_CSRF, …) are ours and documented in docs/architecture.md.
 */
export const ERROR_CATALOGUE = {
  ERR_UNKNOWN: { status: 500, message: 'Something went wrong. Please try again.' },
  ERR_INPUT: { status: 400, message: 'Invalid input' },
  ERR_INVALID_INPUT: { status: 400, message: 'Invalid input' },
  ERR_FORM_VALIDATION_FAILED: { status: 400, message: 'Please correct the highlighted fields' },
  ERR_BRAINTREE: { status: 402, message: 'There was a problem processing your payment, please try again' },
  ERR_INVALID_VAT: { status: 400, message: 'Invalid VAT number' },
  ERR_SEAT_COUNT_TOO_LOW: {
    status: 400,
    message: 'The number of licences cannot be lower than the number of active users',
  },
  ERR_UNKNOWN_PROMO_CODE: { status: 400, message: 'Unknown promo code' },
  ERR_BOARD_NOT_FOUND: { status: 404, message: 'Board not found' },
  ERR_BUSINESS_NOT_FOUND: { status: 404, message: 'Business not found' },
  ERR_NOT_IN_BUSINESS: { status: 403, message: 'You are not a member of a business account' },
  ERR_NO_AVAILABLE_SEATS: { status: 409, message: 'There are no available licences' },
  ERR_USER_IN_BUSINESS: { status: 409, message: 'This user is already in a business account' },
  ERR_INVITATION_MISSING: { status: 404, message: 'Invitation not found or meant for a different email' },
  ERR_COURSE_INVITATION_MISSING: { status: 404, message: 'Course invitation not found or meant for a different email' },
  ERR_MAX_BOARDS_REACHED: { status: 403, message: 'You have reached the maximum number of boards on your plan' },
  ERR_FEATURE_NOT_ENABLED: { status: 403, message: 'This feature is not available on your plan' },
  ERR_NAME_TOO_SHORT: { status: 400, message: 'The name must be at least 2 characters' },
  ERR_EMAIL_TAKEN: { status: 409, message: 'This email address is already taken' },
  ERR_ADDRESS_REGISTERED: { status: 409, message: 'This email address is already registered' },
  ERR_USER_IN_YOUR_BUSINESS: { status: 409, message: 'This user is already in your business account' },
  ERR_USER_ALREADY_INVITED: { status: 409, message: 'This user has already been invited' },
  ERR_NO_EMAIL_MATCH: { status: 400, message: 'The email address does not match' },
  ERR_CANT_INVITE_YOURSELF: { status: 400, message: 'You cannot invite yourself' },
  ERR_USER_IN_COURSE: { status: 409, message: 'This user is already in the course' },
  ERR_COURSE_USER_ALREADY_INVITED: { status: 409, message: 'This user has already been invited to the course' },
  ERR_LOGIN_FAILED: { status: 400, message: 'Wrong email or password' },
  ERR_INVALID_DOMAIN: { status: 400, message: 'This email domain is not accepted' },
  ERR_TEMPORARY_PROBLEM: { status: 503, message: 'A temporary problem occurred, please try again later' },
  ERR_THROWAWAY_NOT_ALLOWED: { status: 400, message: 'Temporary email addresses are not allowed' },
  ERR_MAX_STORAGE_REACHED: { status: 403, message: 'You have reached the storage limit of your plan' },
  ERR_UPLOAD_NOT_ENABLED: { status: 403, message: 'Uploading files is not available on your plan' },
  ERR_UPLOAD_GUEST: { status: 403, message: 'Guests cannot upload files: please sign in' },
  ERR_UNSUPPORTED_FILE: { status: 415, message: 'Unsupported file' },
  ERR_FILE_TOO_LARGE: { status: 413, message: 'The file is too large' },
  ERR_UPLOAD_FAILED: { status: 502, message: 'Upload failed for an unknown reason, please try again' },
  ERR_CONFIRMATION_FAILED: { status: 400, message: 'Confirmation failed: the phrase does not match' },
  ERR_CANT_TERMINATE_OWNER: { status: 409, message: 'Close your business account before terminating your account' },
  ERR_EMAIL_INVALID: { status: 400, message: 'Invalid email address' },
  ERR_INVALID_CREDENTIALS: { status: 400, message: 'The current password is wrong' },
  ERR_TRIAL_UNAVAILABLE: { status: 409, message: 'The free trial is not available for this account' },
  // Transport and platform codes (ours, not in the spec's list).
  ERR_UNAUTHORIZED: { status: 401, message: 'Session expired' },
  ERR_CSRF: { status: 403, message: 'Invalid or missing security token, please reload the page' },
  ERR_FORBIDDEN: { status: 403, message: 'You are not allowed to do this' },
  ERR_NOT_FOUND: { status: 404, message: 'Not found' },
  ERR_USER_NOT_FOUND: { status: 404, message: 'There is no such user' },
  ERR_INVALID_TOKEN: { status: 400, message: 'This link is invalid or has expired' },
  ERR_TOO_MANY_REQUESTS: { status: 429, message: 'Too many attempts, please wait and try again' },
  ERR_VERIFICATION_WAIT: {
    status: 429,
    message: 'A verification email was sent recently, please wait 5 minutes before asking again',
  },
  ERR_PAYLOAD_TOO_LARGE: { status: 413, message: 'The request is too large' },
  ERR_UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Requests must be sent as JSON' },
  ERR_SERVICE_UNAVAILABLE: { status: 503, message: 'The service is temporarily unavailable, please try again' },
  ERR_TIMEOUT: { status: 504, message: 'The service took too long to answer, please try again' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;
export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

/** What leaves the gateway on any failure. `fields` names invalid input fields when known. */
export interface ErrorBody {
  message: string;
  code: ErrorCode | 'FST_ERR_VALIDATION';
  statusCode: number;
  fields?: Record<string, string>;
}

/**
 * A failure with a catalogue code. Thrown by services, carried over NATS in the reply body
 * (see platform/nats) and turned into `ErrorBody` by the gateway.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly fields?: Record<string, string>;
  constructor(code: ErrorCode, message?: string, fields?: Record<string, string>) {
    super(message ?? ERROR_CATALOGUE[code].message);
    this.name = 'AppError';
    this.code = code;
    this.statusCode = ERROR_CATALOGUE[code].status;
    this.fields = fields;
  }
  toBody(): ErrorBody {
    return {
      message: this.message,
      code: this.code,
      statusCode: this.statusCode,
      ...(this.fields ? { fields: this.fields } : {}),
    };
  }
  static isCode(value: unknown): value is ErrorCode {
    return typeof value === 'string' && value in ERROR_CATALOGUE;
  }
}
